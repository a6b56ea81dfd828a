"""Correct but unusual (gemm_fp16): split-K, each split adds its partial tile into a zeroed fp32
workspace with atomics, then a second kernel casts the workspace to float16."""
import torch
import triton
import triton.language as tl


@triton.jit
def splitk_kernel(a_ptr, b_ptr, w_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.program_id(2) * BLOCK_K, K, BLOCK_K * SPLIT_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(w_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def cast_kernel(w_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(c_ptr + offs, tl.load(w_ptr + offs, mask=offs < n).to(c_ptr.dtype.element_ty), mask=offs < n)


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    work = torch.zeros((M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64), 2)
    splitk_kernel[grid](a, b, work, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, SPLIT_K=2)
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    cast_kernel[(triton.cdiv(M * N, 1024),)](work, c, M * N, BLOCK=1024)
    return c
