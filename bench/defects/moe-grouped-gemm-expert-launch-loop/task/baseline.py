"""Baseline MoE expert GEMM: one launch, expert looked up per row block."""
import torch
import triton
import triton.language as tl


@triton.jit
def moe_gemm_kernel(x_ptr, w_ptr, out_ptr, expert_ptr, N, K,
                    stride_xm, stride_we, stride_wk, stride_om,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    block = tl.program_id(0)
    expert = tl.load(expert_ptr + block).to(tl.int64)
    rm = block * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    w_base = w_ptr + expert * stride_we
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + rm[:, None] * stride_xm + (k + rk)[None, :], mask=(k + rk)[None, :] < K, other=0.0)
        b = tl.load(w_base + (k + rk)[:, None] * stride_wk + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :], acc.to(out_ptr.dtype.element_ty),
             mask=rn[None, :] < N)


def run(x: torch.Tensor, w: torch.Tensor, block_expert: torch.Tensor) -> torch.Tensor:
    T, K = x.shape
    N = w.shape[2]
    out = torch.empty((T, N), dtype=x.dtype, device=x.device)
    grid = (block_expert.shape[0], triton.cdiv(N, 128))
    moe_gemm_kernel[grid](x, w, out, block_expert, N, K, x.stride(0), w.stride(0), w.stride(1),
                          out.stride(0), BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, num_warps=4, num_stages=3)
    return out
