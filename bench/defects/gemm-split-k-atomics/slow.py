"""fp16 GEMM with split-K: 4 programs per output tile add fp32 partials atomically, then a cast kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def matmul_split_k_kernel(a_ptr, b_ptr, c_ptr, M, N, K, k_per_split,
                          stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    k_start = tl.program_id(2) * k_per_split
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k_start, k_start + k_per_split, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc,
                  mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def cast_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask).to(dst_ptr.dtype.element_ty), mask=mask)


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = a.shape
    N = b.shape[1]
    split_k = 4  # more programs per output tile: more parallelism along K
    k_per_split = triton.cdiv(triton.cdiv(K, split_k), 64) * 64
    c32 = torch.zeros((M, N), dtype=torch.float32, device=a.device)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128), split_k)
    matmul_split_k_kernel[grid](a, b, c32, M, N, K, k_per_split, a.stride(0), a.stride(1), b.stride(0),
                                b.stride(1), c32.stride(0), c32.stride(1),
                                BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
    c = torch.empty((M, N), dtype=a.dtype, device=a.device)
    cast_kernel[(triton.cdiv(M * N, 1024),)](c32, c, M * N, BLOCK=1024)
    return c
