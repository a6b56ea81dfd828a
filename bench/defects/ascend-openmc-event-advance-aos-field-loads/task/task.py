"""Event-based advance of the particle bank (OpenMC event mode, `process_advance_particle_events`).

Every particle in the advance queue samples its distance to collision d_col = -ln(xi) / Sigma_t (Sigma_t is the
macroscopic total cross section the preceding calculate_xs event stored) and computes its distance to the walls
of the lattice cell it sits in (RectLattice::distance: for each axis the wall ahead of the particle along its
direction cosine, (wall - x) / u, in a regular lattice of pitch px, py, pz). It then moves by
d = min(d_col, d_wall) and records the next event: 1 = collision (d_col < d_wall), 0 = lattice-cell crossing.

The bank is the code's particle-state array of structures: one packed record of 8 fp32 per particle,
(x, y, z, u, v, w, E, wgt). The kernel returns the advanced records (positions moved, the other fields copied)
and the event codes.
"""
import math

import torch

META = {
    "name": "mc_advance_particles",
    "level": 2,
    "category": "monte-carlo-transport",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 1237},
        "large": {"N": 4194304},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 512 particles; each block is one "
                      "contiguous [512, 8] tile of records, fields taken apart and the moved positions put back "
                      "on chip, one [512, 8] store per block plus the event codes; no autotune.",
    "deterministic": True,
}
PITCH_XY = 1.26          # PWR 17x17 pin pitch, cm
PITCH_Z = 15.24          # axial segments of the 365.76 cm active height, cm
N_PINS = 17


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state [N, 8] (x, y, z, u, v, w, E, wgt), sigma_t [N] (1/cm), xi [N] in (0, 1], pitches px, py, pz (cm)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pos = torch.rand(n, 3, generator=g) * torch.tensor([N_PINS * PITCH_XY, N_PINS * PITCH_XY, 24 * PITCH_Z])
    d = torch.randn(n, 3, generator=g)
    d = d / d.norm(dim=1, keepdim=True)
    energy = torch.exp(torch.empty(n).uniform_(math.log(1e-5), math.log(2e7), generator=g))
    wgt = torch.ones(n)
    state = torch.cat([pos, d, energy[:, None], wgt[:, None]], dim=1).contiguous()
    sigma_t = 0.3 + 1.7 * torch.rand(n, generator=g)
    xi = 1.0 - torch.rand(n, generator=g)
    return (state.to(device=device, dtype=dt), sigma_t.to(device=device, dtype=dt),
            xi.to(device=device, dtype=dt), PITCH_XY, PITCH_XY, PITCH_Z)


def _wall_distance(x: torch.Tensor, u: torch.Tensor, pitch: float) -> torch.Tensor:
    lo = torch.floor(x / pitch) * pitch
    wall = torch.where(u > 0, lo + pitch, lo)
    safe = torch.where(u != 0, u, torch.ones_like(u))
    return torch.where(u != 0, (wall - x) / safe, torch.full_like(u, float("inf")))


def reference(state: torch.Tensor, sigma_t: torch.Tensor, xi: torch.Tensor,
              px: float, py: float, pz: float) -> tuple:
    x, y, z, u, v, w = (state[:, k] for k in range(6))
    d_col = -torch.log(xi) / sigma_t
    d_wall = torch.minimum(torch.minimum(_wall_distance(x, u, px), _wall_distance(y, v, py)),
                           _wall_distance(z, w, pz))
    hit = d_col < d_wall
    d = torch.where(hit, d_col, d_wall)
    out = state.clone()
    out[:, 0] = x + d * u
    out[:, 1] = y + d * v
    out[:, 2] = z + d * w
    return out, hit.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": (32 + 8 + 32 + 4) * n, "flops": 40 * n}
