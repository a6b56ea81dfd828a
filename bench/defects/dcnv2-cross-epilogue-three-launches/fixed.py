"""DCN-v2 low-rank cross output: one GEMM kernel with the bias, x0 product and residual in its epilogue."""
import torch
import triton
import triton.language as tl


@triton.jit
def cross_gemm_kernel(xv_ptr, w_ptr, b_ptr, x0_ptr, xl_ptr, out_ptr, M, N, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = pid // (GROUP_M * num_n)
    first_m = group * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * num_n)) % size_m
    pid_n = (pid % (GROUP_M * num_n)) // size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_mask = offs_m < M
    n_mask = offs_n < N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k_mask = (k0 + offs_k) < K
        a = tl.load(xv_ptr + offs_m[:, None] * K + (k0 + offs_k)[None, :], mask=m_mask[:, None] & k_mask[None, :],
                    other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * K + (k0 + offs_k)[:, None], mask=k_mask[:, None] & n_mask[None, :],
                    other=0.0)
        acc = tl.dot(a, b, acc)
    acc += tl.load(b_ptr + offs_n, mask=n_mask, other=0.0).to(tl.float32)[None, :]
    tile = offs_m.to(tl.int64)[:, None] * N + offs_n[None, :]
    mn = m_mask[:, None] & n_mask[None, :]
    x0 = tl.load(x0_ptr + tile, mask=mn, other=0.0).to(tl.float32)
    xl = tl.load(xl_ptr + tile, mask=mn, other=0.0).to(tl.float32)
    tl.store(out_ptr + tile, (x0 * acc + xl).to(out_ptr.dtype.element_ty), mask=mn)


def run(xv, w, bias, x0, xl):
    M, K = xv.shape
    N = w.shape[0]
    out = torch.empty((M, N), device=xv.device, dtype=xv.dtype)
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 128),)
    cross_gemm_kernel[grid](xv, w, bias, x0, xl, out, M, N, K, BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8,
                            num_warps=4, num_stages=4)
    return out
