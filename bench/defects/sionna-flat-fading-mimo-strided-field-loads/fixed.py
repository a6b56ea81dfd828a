"""Flat-fading MIMO channel y = H x + sqrt(N0) n (Sionna ApplyFlatFadingChannel), complex64 as (re, im) pairs."""
import torch
import triton
import triton.language as tl

BLOCK = 32


@triton.jit
def _flat_fading(x, h, n, y, sqrt_no, batch,
                 M: tl.constexpr, K: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = b < batch
    rx = tl.arange(0, M)
    tx = tl.arange(0, K)
    ri = tl.arange(0, 2)
    # whole records as contiguous tiles; real and imaginary parts separated on chip
    x_off = b[:, None, None] * (2 * K) + tx[None, :, None] * 2 + ri[None, None, :]
    xr, xi = tl.split(tl.load(x + x_off, mask=ok[:, None, None], other=0.0))
    h_off = (b[:, None, None, None] * (2 * M * K) + rx[None, :, None, None] * (2 * K)
             + tx[None, None, :, None] * 2 + ri[None, None, None, :])
    hr, hi = tl.split(tl.load(h + h_off, mask=ok[:, None, None, None], other=0.0))
    y_off = b[:, None, None] * (2 * M) + rx[None, :, None] * 2 + ri[None, None, :]
    nr, ni = tl.split(tl.load(n + y_off, mask=ok[:, None, None], other=0.0))
    yr = sqrt_no * nr + tl.sum(hr * xr[:, None, :] - hi * xi[:, None, :], axis=2)
    yi = sqrt_no * ni + tl.sum(hr * xi[:, None, :] + hi * xr[:, None, :], axis=2)
    tl.store(y + y_off, tl.join(yr, yi), mask=ok[:, None, None])


def run(x: torch.Tensor, h: torch.Tensor, n: torch.Tensor, no: float) -> torch.Tensor:
    B, M, K, _ = h.shape
    y = torch.empty((B, M, 2), device=x.device, dtype=x.dtype)
    _flat_fading[(triton.cdiv(B, BLOCK),)](x, h, n, y, no ** 0.5, B, M=M, K=K, BLOCK=BLOCK, num_warps=4)
    return y
