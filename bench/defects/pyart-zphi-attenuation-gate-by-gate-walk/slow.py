"""ZPHI attenuation correction (Py-ART calculate_attenuation_zphi): one program per ray."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _zphi_ray(refl, phidp, spec_att, corr_refl, n_gates, kz, kc, i_scale, pia_scale):
    ray = tl.program_id(0)
    base = ray * n_gates
    # ray integral of za = 10^(0.1 b dBZ) and the phase shift over the ray
    total = 0.0
    dphi = -float("inf")
    for g in range(n_gates):
        total += tl.exp2(kz * tl.load(refl + base + g))
        dphi = tl.maximum(dphi, tl.load(phidp + base + g))
    c = tl.exp2(kc * dphi) - 1.0
    i0 = i_scale * total
    # walk out along the ray: far-end integral I(r), specific attenuation, PIA
    before = 0.0
    pia = 0.0
    for g in range(n_gates):
        z = tl.load(refl + base + g)
        za = tl.exp2(kz * z)
        i_r = i_scale * (total - before)
        a = za * c / (i0 + c * i_r)
        pia += pia_scale * a
        tl.store(spec_att + base + g, a)
        tl.store(corr_refl + base + g, z + pia)
        before += za


def run(refl: torch.Tensor, phidp: torch.Tensor, a_coef: float, beta: float, dr: float) -> tuple:
    n_rays, n_gates = refl.shape
    spec_att = torch.empty_like(refl)
    corr_refl = torch.empty_like(refl)
    kz = 0.1 * beta * math.log2(10.0)
    _zphi_ray[(n_rays,)](refl, phidp, spec_att, corr_refl, n_gates, kz, kz * a_coef,
                         0.46 * beta * dr, 2.0 * dr, num_warps=4)
    return spec_att, corr_refl
