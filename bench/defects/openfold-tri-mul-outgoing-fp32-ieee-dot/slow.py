"""Triangle multiplicative update (outgoing): out[c, i, j] = sum_k a[c, i, k] * b[c, j, k], one output tile per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tri_mul_outgoing(a, b, out, N, stride_c, stride_r,
                      BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_i = tl.program_id(0)
    pid_j = tl.program_id(1)
    c = tl.program_id(2)
    offs_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    offs_j = pid_j * BLOCK_J + tl.arange(0, BLOCK_J)
    offs_k = tl.arange(0, BLOCK_K)
    a_rows = a + c * stride_c + offs_i[:, None] * stride_r
    b_rows = b + c * stride_c + offs_j[:, None] * stride_r
    acc = tl.zeros((BLOCK_I, BLOCK_J), dtype=tl.float32)
    for k0 in range(0, N, BLOCK_K):
        k = k0 + offs_k
        a_t = tl.load(a_rows + k[None, :], mask=(offs_i[:, None] < N) & (k[None, :] < N), other=0.0)
        b_t = tl.load(b_rows + k[None, :], mask=(offs_j[:, None] < N) & (k[None, :] < N), other=0.0)
        acc = tl.dot(a_t.to(tl.float32), tl.trans(b_t.to(tl.float32)), acc, input_precision="ieee")
    o_ptrs = out + c * stride_c + offs_i[:, None] * stride_r + offs_j[None, :]
    tl.store(o_ptrs, acc.to(out.dtype.element_ty), mask=(offs_i[:, None] < N) & (offs_j[None, :] < N))


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    C, N, _ = a.shape
    out = torch.empty_like(a)
    BLOCK_I, BLOCK_J, BLOCK_K = 128, 128, 32
    grid = (triton.cdiv(N, BLOCK_I), triton.cdiv(N, BLOCK_J), C)
    _tri_mul_outgoing[grid](a, b, out, N, a.stride(0), a.stride(1),
                            BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K, num_warps=8, num_stages=3)
    return out
