"""Khatri-Rao product P[i * J + j, r] = A[i, r] * B[j, r] (column-wise Kronecker product)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _khatri_rao(a_ptr, b_ptr, p_ptr, I, J, R, stride_ai, stride_bj, stride_pr,
                BJ: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs_j = tl.arange(0, BJ)
    offs_r = tl.arange(0, BR)
    rmask = offs_r < R
    # one work item = row i of A: rows i*J .. i*J + J - 1 of P, all R columns
    for i in range(pid, I, nprog):
        a = tl.load(a_ptr + i * stride_ai + offs_r, mask=rmask, other=0.0)
        for j0 in range(0, J, BJ):
            jj = j0 + offs_j
            jmask = jj < J
            m = jmask[:, None] & rmask[None, :]
            b = tl.load(b_ptr + jj[:, None] * stride_bj + offs_r[None, :], mask=m, other=0.0)
            tl.store(p_ptr + (i * J + jj[:, None]) * stride_pr + offs_r[None, :], a[None, :] * b, mask=m)


def run(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    I, R = A.shape
    J = B.shape[0]
    P = torch.empty((I * J, R), device=A.device, dtype=A.dtype)
    BR = triton.next_power_of_2(R)
    BJ = max(1, 8192 // BR)
    grid = (min(_VECTOR_CORES, I),)
    _khatri_rao[grid](A, B, P, I, J, R, A.stride(0), B.stride(0), P.stride(0), BJ=BJ, BR=BR)
    return P
