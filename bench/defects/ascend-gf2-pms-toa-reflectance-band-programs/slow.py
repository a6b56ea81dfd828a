"""GF-2 PMS DN to TOA reflectance: per-band gain, offset and ESUN, one pass over the band-sequential scene."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _toa_reflectance(dn, gain, offset, esun, out, n_pix, sun_scale, BLOCK: tl.constexpr):
    band = tl.program_id(0)
    g = tl.load(gain + band)
    o = tl.load(offset + band)
    k = sun_scale / tl.load(esun + band)
    base = band * n_pix
    for start in range(0, n_pix, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n_pix
        x = tl.load(dn + base + offs, mask=m, other=0).to(tl.float32)
        tl.store(out + base + offs, (x * g + o) * k, mask=m)


def run(dn, gain, offset, esun, d_au, sun_zenith_deg):
    B, H, W = dn.shape
    out = torch.empty((B, H, W), device=dn.device, dtype=torch.float32)
    sun_scale = math.pi * d_au * d_au / math.cos(math.radians(sun_zenith_deg))
    _toa_reflectance[(B,)](dn, gain, offset, esun, out, H * W, sun_scale, BLOCK=8192)
    return out
