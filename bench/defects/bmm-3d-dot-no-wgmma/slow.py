"""Batched GEMM that multiplies BLOCK_B batches per program with one 3-D tl.dot: MMA v2 only on sm_90."""
import torch
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, B, M, N, K,
               stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
               stride_cb, stride_cm, stride_cn, BLOCK_B: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rb = tl.program_id(2) * BLOCK_B + tl.arange(0, BLOCK_B)
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_B, BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rb[:, None, None] * stride_ab + rm[None, :, None] * stride_am
                    + (k + rk)[None, None, :] * stride_ak,
                    mask=(rb[:, None, None] < B) & (rm[None, :, None] < M) & ((k + rk)[None, None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + rb[:, None, None] * stride_bb + (k + rk)[None, :, None] * stride_bk
                    + rn[None, None, :] * stride_bn,
                    mask=(rb[:, None, None] < B) & ((k + rk)[None, :, None] < K) & (rn[None, None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)  # a batched (rank-3) dot
    tl.store(c_ptr + rb[:, None, None] * stride_cb + rm[None, :, None] * stride_cm + rn[None, None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty),
             mask=(rb[:, None, None] < B) & (rm[None, :, None] < M) & (rn[None, None, :] < N))


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    B, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((B, M, N), dtype=a.dtype, device=a.device)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64), triton.cdiv(B, 2))
    bmm_kernel[grid](a, b, c, B, M, N, K, *a.stride(), *b.stride(), *c.stride(),
                     BLOCK_B=2, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return c
