"""Cutoff Lennard-Jones forces of a spatially sorted atom system (OpenMM's CUDA nonbonded kernel, CutoffNonPeriodic).

Atoms are Morton-ordered so that consecutive 32-atom blocks are compact in space; each atom carries OpenMM's
per-atom (sigma/2, 2*sqrt(epsilon)) pair, so that the Lorentz-Berthelot pair parameters are a sum and a product.
"""
import math

import torch

META = {
    "name": "lj_cutoff_forces",
    "level": 2,
    "category": "nbody",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 1200},
        "ragged": {"N": 1531},
        "large": {"N": 32768},
    },
    "baseline_notes": "OpenMM-style blocks of 32 atoms: a small kernel writes each block's bounding box, then one "
                      "program per i-block loops over the j-blocks and computes a 32x32 tile only where the two boxes "
                      "are within the cutoff; 2 warps.",
    "deterministic": True,
}

SPACING = 0.27   # nm, a liquid-like number density of ~50 atoms / nm^3
CUTOFF = 1.0     # nm


def _spread_bits(v: torch.Tensor) -> torch.Tensor:
    v = v & 0x3FF
    v = (v | (v << 16)) & 0x030000FF
    v = (v | (v << 8)) & 0x0300F00F
    v = (v | (v << 4)) & 0x030C30C3
    v = (v | (v << 2)) & 0x09249249
    return v


def _droplet(n: int, g: torch.Generator) -> torch.Tensor:
    """n jittered lattice sites nearest the centre of a cube: a roughly spherical droplet, Morton-sorted."""
    side = math.ceil((n * 6 / math.pi) ** (1 / 3)) + 2
    ax = torch.arange(side, dtype=torch.float64) - (side - 1) / 2
    grid = torch.stack(torch.meshgrid(ax, ax, ax, indexing="ij"), dim=-1).reshape(-1, 3)
    keep = grid.pow(2).sum(1).argsort()[:n]
    pos = grid[keep] * SPACING + (torch.rand(n, 3, generator=g, dtype=torch.float64) - 0.5) * 0.06
    q = ((pos - pos.min(0).values) / (pos.max(0).values - pos.min(0).values + 1e-9) * 1023).long()
    code = _spread_bits(q[:, 0]) | (_spread_bits(q[:, 1]) << 1) | (_spread_bits(q[:, 2]) << 2)
    return pos[code.argsort()]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions [N, 3] (nm), per-atom (sigma/2, 2*sqrt(eps)) [N, 2], and the cutoff in nm."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pos = _droplet(n, g)
    sigma = 0.22 + 0.04 * torch.rand(n, generator=g, dtype=torch.float64)
    eps = 0.3 + 0.7 * torch.rand(n, generator=g, dtype=torch.float64)
    params = torch.stack([sigma / 2, 2 * eps.sqrt()], dim=1)
    return pos.to(dt).to(device), params.to(dt).to(device), CUTOFF


def reference(pos: torch.Tensor, params: torch.Tensor, cutoff: float) -> torch.Tensor:
    p = pos.double()
    half_sig, two_sqrt_eps = params[:, 0].double(), params[:, 1].double()
    n = p.shape[0]
    ids = torch.arange(n, device=p.device)
    out = torch.empty_like(p)
    for i0 in range(0, n, 1024):
        i1 = min(n, i0 + 1024)
        d = p[i0:i1, None, :] - p[None, :, :]
        r2 = d.pow(2).sum(-1)
        sig = half_sig[i0:i1, None] + half_sig[None, :]
        eps4 = two_sqrt_eps[i0:i1, None] * two_sqrt_eps[None, :]
        keep = (r2 < cutoff * cutoff) & (ids[i0:i1, None] != ids[None, :])
        inv_r2 = 1.0 / torch.where(keep, r2, torch.ones_like(r2))
        s6 = (sig * sig * inv_r2).pow(3)
        f = torch.where(keep, eps4 * (12.0 * s6 * s6 - 6.0 * s6) * inv_r2, torch.zeros_like(r2))
        out[i0:i1] = (f[..., None] * d).sum(1)
    return out.to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    neighbours = 4.0 / 3.0 * math.pi * CUTOFF ** 3 / SPACING ** 3
    return {"bytes": n * (12 + 8 + 12), "flops": int(25 * n * neighbours)}
