"""Spectral information divergence of every pixel of a BSQ cube against one reference spectrum."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sid_map(cube, ref, out, n_pix, n_bands, BLOCK_B: tl.constexpr):
    pix = tl.program_id(0)
    bands = tl.arange(0, BLOCK_B)
    band_ok = bands < n_bands
    s = tl.load(cube + bands * n_pix + pix, mask=band_ok, other=1.0)
    r = tl.load(ref + bands, mask=band_ok, other=1.0)
    p = s / tl.sum(tl.where(band_ok, s, 0.0), axis=0)
    q = r / tl.sum(tl.where(band_ok, r, 0.0), axis=0)
    term = (p - q) * tl.log(p / q)
    tl.store(out + pix, tl.sum(tl.where(band_ok, term, 0.0), axis=0))


def run(cube: torch.Tensor, ref: torch.Tensor) -> torch.Tensor:
    b, h, w = cube.shape
    cube = cube.contiguous()
    n = h * w
    out = torch.empty((h, w), device=cube.device, dtype=torch.float32)
    _sid_map[(n,)](cube, ref, out, n, b, BLOCK_B=triton.next_power_of_2(b), num_warps=4)
    return out
