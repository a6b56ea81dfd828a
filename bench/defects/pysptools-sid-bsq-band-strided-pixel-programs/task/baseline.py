"""Spectral information divergence of every pixel of a BSQ cube against one reference spectrum."""
import torch
import triton
import triton.language as tl

BLOCK_P = 32   # neighbouring pixels per program (the contiguous axis of each band plane)


@triton.jit
def _sid_map(cube, ref, out, n_pix, n_bands, BLOCK_B: tl.constexpr, BLOCK_P: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    bands = tl.arange(0, BLOCK_B)
    pix_ok = pix < n_pix
    band_ok = bands < n_bands
    ok = band_ok[:, None] & pix_ok[None, :]
    s = tl.load(cube + bands[:, None] * n_pix + pix[None, :], mask=ok, other=1.0)
    r = tl.load(ref + bands, mask=band_ok, other=1.0)
    p = s / tl.sum(tl.where(ok, s, 0.0), axis=0)[None, :]
    q = r / tl.sum(tl.where(band_ok, r, 0.0), axis=0)
    term = (p - q[:, None]) * tl.log(p / q[:, None])
    tl.store(out + pix, tl.sum(tl.where(ok, term, 0.0), axis=0), mask=pix_ok)


def run(cube: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    b, h, w = cube.shape
    cube = cube.contiguous()
    n = h * w
    out = torch.empty((h, w), device=cube.device, dtype=torch.float32)
    _sid_map[(triton.cdiv(n, BLOCK_P),)](cube, ref, out, n, b, BLOCK_B=triton.next_power_of_2(b),
                                         BLOCK_P=BLOCK_P, num_warps=8)
    return out
