"""GEMM + bias + tanh-GELU: 128x128x32 tiles; the multiply-accumulate lives in a small @triton.jit helper that works in fp32."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mac(acc, a, b):
    # accumulate in full precision: both operands go to fp32 before the product
    return tl.dot(a.to(tl.float32), b.to(tl.float32), acc)


@triton.jit
def _gelu_tanh(y):
    inner = 0.7978845608028654 * (y + 0.044715 * y * y * y)
    return 0.5 * y * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))


@triton.jit
def linear_gelu_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
                       stride_xm, stride_xk, stride_wk, stride_wn, stride_om, stride_on,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(x_ptr + rm[:, None] * stride_xm + (k + rk)[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(w_ptr + (k + rk)[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = _mac(acc, a, b)
    y = _gelu_tanh(acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :])
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on,
             y.to(out_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[1]
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    linear_gelu_kernel[grid](x, w, b, out, M, N, K, x.stride(0), x.stride(1),
                             w.stride(0), w.stride(1), out.stride(0), out.stride(1),
                             BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, num_warps=8, num_stages=3)
    return out
