"""Flat-fading MIMO channel y = H x + sqrt(N0) n (Sionna ApplyFlatFadingChannel), complex64 as (re, im) pairs."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _flat_fading(x, h, n, y, sqrt_no, batch,
                 M: tl.constexpr, K: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = b < batch
    # one channel use per lane: the transmit vector's fields, read once
    xr = ()
    xi = ()
    for k in tl.static_range(K):
        xr = xr + (tl.load(x + b * (2 * K) + 2 * k, mask=ok, other=0.0),)
        xi = xi + (tl.load(x + b * (2 * K) + 2 * k + 1, mask=ok, other=0.0),)
    for m in tl.static_range(M):
        yr = sqrt_no * tl.load(n + b * (2 * M) + 2 * m, mask=ok, other=0.0)
        yi = sqrt_no * tl.load(n + b * (2 * M) + 2 * m + 1, mask=ok, other=0.0)
        for k in tl.static_range(K):
            hr = tl.load(h + b * (2 * M * K) + 2 * (m * K + k), mask=ok, other=0.0)
            hi = tl.load(h + b * (2 * M * K) + 2 * (m * K + k) + 1, mask=ok, other=0.0)
            yr += hr * xr[k] - hi * xi[k]
            yi += hr * xi[k] + hi * xr[k]
        tl.store(y + b * (2 * M) + 2 * m, yr, mask=ok)
        tl.store(y + b * (2 * M) + 2 * m + 1, yi, mask=ok)


def run(x: torch.Tensor, h: torch.Tensor, n: torch.Tensor, no: float) -> torch.Tensor:
    B, M, K, _ = h.shape
    y = torch.empty((B, M, 2), device=x.device, dtype=x.dtype)
    _flat_fading[(triton.cdiv(B, BLOCK),)](x, h, n, y, no ** 0.5, B, M=M, K=K, BLOCK=BLOCK, num_warps=4)
    return y
