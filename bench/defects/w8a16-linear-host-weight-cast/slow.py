"""W8A16 linear: the int8 weight is cast to the activation dtype (as torchao's fallback does), then a Triton GEMM with the scale epilogue."""
import torch
import triton
import triton.language as tl

CONFIG = {"BLOCK_M": 16, "BLOCK_N": 64, "BLOCK_K": 128, "num_warps": 4, "num_stages": 3}


@triton.jit
def linear_scale_kernel(x_ptr, w_ptr, scale_ptr, y_ptr, M, N, K, stride_xm, stride_wn, stride_ym,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[:, None] * stride_wn + kk[None, :],
                    mask=(rn[:, None] < N) & (kk[None, :] < K), other=0.0)
        acc = tl.dot(x, tl.trans(w), acc)
    scale = tl.load(scale_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = (acc * scale[None, :]).to(y_ptr.dtype.element_ty)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _launch(x: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = w.shape[0]
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(M, CONFIG["BLOCK_M"]), triton.cdiv(N, CONFIG["BLOCK_N"]))
    linear_scale_kernel[grid](x, w, scale, y, M, N, K, x.stride(0), w.stride(0), y.stride(0), **CONFIG)
    return y


def run(x: torch.Tensor, w_int8: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    w = w_int8.to(x.dtype)  # int8 -> bf16 copy of the whole weight for every call
    return _launch(x, w, scale)
