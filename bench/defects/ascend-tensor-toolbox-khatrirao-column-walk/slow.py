"""Khatri-Rao product P[i * J + j, r] = A[i, r] * B[j, r] (column-wise Kronecker product)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _khatri_rao(a_ptr, b_ptr, p_ptr, I, J, R, stride_ai, stride_bj, stride_pr,
                BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs_j = tl.arange(0, BJ)
    # column r of P is kron(A[:, r], B[:, r]); each program builds its rows i of every column
    for r in range(0, R):
        for i in range(pid, I, nprog):
            a = tl.load(a_ptr + i * stride_ai + r)
            for j0 in range(0, J, BJ):
                jj = j0 + offs_j
                jmask = jj < J
                b = tl.load(b_ptr + jj * stride_bj + r, mask=jmask, other=0.0)
                tl.store(p_ptr + (i * J + jj) * stride_pr + r, a * b, mask=jmask)


def run(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    I, R = A.shape
    J = B.shape[0]
    P = torch.empty((I * J, R), device=A.device, dtype=A.dtype)
    grid = (min(_VECTOR_CORES, I),)
    _khatri_rao[grid](A, B, P, I, J, R, A.stride(0), B.stride(0), P.stride(0), BJ=1024)
    return P
