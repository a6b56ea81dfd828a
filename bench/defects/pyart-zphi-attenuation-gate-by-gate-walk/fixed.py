"""ZPHI attenuation correction (Py-ART calculate_attenuation_zphi): one program per ray."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _zphi_ray(refl, phidp, spec_att, corr_refl, n_gates, kz, kc, i_scale, pia_scale,
              BLOCK_G: tl.constexpr):
    ray = tl.program_id(0)
    base = ray * n_gates
    gates = tl.arange(0, BLOCK_G)
    ok = gates < n_gates
    # ray integral of za = 10^(0.1 b dBZ) and the phase shift over the ray
    z = tl.load(refl + base + gates, mask=ok, other=0.0)
    za = tl.where(ok, tl.exp2(kz * z), 0.0)
    total = tl.sum(za, axis=0)
    dphi = tl.max(tl.load(phidp + base + gates, mask=ok, other=-float("inf")), axis=0)
    c = tl.exp2(kc * dphi) - 1.0
    i0 = i_scale * total
    # all gates of the ray at once: far-end integral I(r), specific attenuation, PIA
    before = tl.cumsum(za, axis=0) - za
    i_r = i_scale * (total - before)
    a = za * c / (i0 + c * i_r)
    pia = tl.cumsum(pia_scale * a, axis=0)
    tl.store(spec_att + base + gates, a, mask=ok)
    tl.store(corr_refl + base + gates, z + pia, mask=ok)


def run(refl: torch.Tensor, phidp: torch.Tensor, a_coef: float, beta: float, dr: float) -> tuple:
    n_rays, n_gates = refl.shape
    spec_att = torch.empty_like(refl)
    corr_refl = torch.empty_like(refl)
    kz = 0.1 * beta * math.log2(10.0)
    _zphi_ray[(n_rays,)](refl, phidp, spec_att, corr_refl, n_gates, kz, kz * a_coef,
                         0.46 * beta * dr, 2.0 * dr,
                         BLOCK_G=triton.next_power_of_2(n_gates), num_warps=4)
    return spec_att, corr_refl
