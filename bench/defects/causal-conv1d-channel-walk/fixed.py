"""Causal conv1d + SiLU on the channels-last layout: one program per (batch, 64 positions, 128 channels), the W taps as shifted [64, 128] tiles with channels contiguous."""
import torch
import triton
import triton.language as tl


@triton.jit
def causal_conv1d_kernel(x_ptr, w_ptr, bias_ptr, y_ptr, L, D,
                         W: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    pos = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    d = tl.program_id(2) * BLOCK_D + tl.arange(0, BLOCK_D)
    base = b.to(tl.int64) * L * D
    dmask = d < D
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32) + tl.load(bias_ptr + d, mask=dmask, other=0.0)[None, :]
    for k in tl.static_range(W):
        src = pos - (W - 1) + k
        m = ((src >= 0) & (src < L))[:, None] & dmask[None, :]
        xv = tl.load(x_ptr + base + src[:, None] * D + d[None, :], mask=m, other=0.0).to(tl.float32)
        acc += xv * tl.load(w_ptr + d * W + k, mask=dmask, other=0.0)[None, :]
    acc = acc * tl.sigmoid(acc)
    tl.store(y_ptr + base + pos[:, None] * D + d[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(pos < L)[:, None] & dmask[None, :])


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    B, L, D = x.shape
    W = weight.shape[1]
    y = torch.empty_like(x)
    grid = (B, triton.cdiv(L, 64), triton.cdiv(D, 128))
    causal_conv1d_kernel[grid](x, weight, bias, y, L, D, W=W, BLOCK_L=64, BLOCK_D=128)
    return y
