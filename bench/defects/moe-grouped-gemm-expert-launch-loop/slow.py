"""MoE expert GEMM as a host loop: read the block-to-expert map, launch one GEMM per expert segment."""
import torch
import triton
import triton.language as tl


@triton.jit
def gemm_kernel(x_ptr, w_ptr, out_ptr, M, N, K, stride_xm, stride_wk, stride_om,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + rm[:, None] * stride_xm + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(w_ptr + (k + rk)[:, None] * stride_wk + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], acc.to(out_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x: torch.Tensor, w: torch.Tensor, block_expert: torch.Tensor) -> torch.Tensor:
    T, K = x.shape
    N = w.shape[2]
    out = torch.empty((T, N), dtype=x.dtype, device=x.device)
    experts = block_expert.tolist()  # device -> host copy: the segments are planned on the CPU
    start = 0
    while start < len(experts):
        end = start
        while end < len(experts) and experts[end] == experts[start]:
            end += 1
        rows = (end - start) * 64
        xs, os_ = x[start * 64:end * 64], out[start * 64:end * 64]
        grid = (triton.cdiv(rows, 64), triton.cdiv(N, 128))
        gemm_kernel[grid](xs, w[experts[start]], os_, rows, N, K, xs.stride(0), w.stride(1),
                          os_.stride(0), BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, num_warps=4, num_stages=3)
        start = end
    return out
