"""FP8 scaled mm from the block-scaled template: each K block's dot is dequantised with the scales inside the K loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def fp8_scaled_mm_kernel(a_ptr, w_ptr, xs_ptr, ws_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(w_ptr + rn[None, :] * stride_wn + (k + rk)[:, None],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        a_s = tl.load(xs_ptr + rm, mask=rm < M, other=0.0)
        b_s = tl.load(ws_ptr + rn, mask=rn < N, other=0.0)
        acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc.to(tl.bfloat16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x, weight, x_scale, w_scale) -> torch.Tensor:
    M, K = x.shape
    N = weight.shape[0]
    c = torch.empty((M, N), dtype=torch.bfloat16, device=x.device)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    fp8_scaled_mm_kernel[grid](x, weight, x_scale, w_scale, c, M, N, K, x.stride(0), weight.stride(0),
                               c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, num_warps=8, num_stages=3)
    return c
