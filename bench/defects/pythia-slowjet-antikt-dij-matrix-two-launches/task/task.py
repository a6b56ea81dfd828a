"""Anti-kT nearest-neighbour clustering distances of Pythia 8 events (Pythia8::SlowJet, power = -1).

SlowJet describes every final-state particle by (pT, y, phi) and, before each clustering step,
needs for every particle i its beam distance d_iB = pT_i^(2p) and its pairwise distances
d_ij = min(d_iB, d_jB) * ((y_i - y_j)^2 + dphi_ij^2) / R^2, dphi wrapped into [0, pi]. With
p = -1 (anti-kT) d_iB = 1 / pT_i^2. This task returns, per particle, the smallest distance that
particle takes part in, d_i = min(d_iB, min_{j != i} d_ij) (the FastJet NNH bookkeeping that lets
the global minimum be found without rescanning all pairs).

Events are padded to N slots: pt, y, phi [E, N] fp32, n_part [E] int32 (slots >= n_part are
padding with arbitrary content), R (float). Returns d_min [E, N] fp32, 0 in padding slots.
"""
import math

import torch

META = {
    "name": "slowjet_antikt_nn_distance",
    "level": 2,
    "category": "particle-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-3}},
    "sizes": {
        "small": {"E": 3, "N": 40},
        "ragged": {"E": 5, "N": 77},
        "large": {"E": 512, "N": 1024},
    },
    "baseline_notes": "Grid (events, row blocks of 64 particles); each program keeps its rows' pT, y, phi "
                      "and d_iB in registers, walks the event's particles in blocks of 64, forms the 64x64 "
                      "d_ij tile and folds its row minimum into a running minimum; one store of d_i per "
                      "particle. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Pythia-like final states: a soft underlying event plus a few collimated jets, padded to N slots."""
    s = META["sizes"][size]
    e, n = s["E"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_part = torch.randint(max(2, (6 * n) // 10), n + 1, (e,), generator=g, dtype=torch.int32)
    pt = 0.15 + torch.empty(e, n).exponential_(1.0 / 0.8, generator=g)
    y = (torch.rand(e, n, generator=g) * 2.0 - 1.0) * 4.5
    phi = (torch.rand(e, n, generator=g) * 2.0 - 1.0) * math.pi
    # a quarter of the particles belong to 4 jets per event: hard, close in (y, phi) to the jet axis
    n_jet = n // 4
    axis_y = (torch.rand(e, 4, generator=g) * 2.0 - 1.0) * 2.5
    axis_phi = (torch.rand(e, 4, generator=g) * 2.0 - 1.0) * math.pi
    which = torch.randint(0, 4, (e, n_jet), generator=g)
    y[:, :n_jet] = torch.gather(axis_y, 1, which) + 0.15 * torch.randn(e, n_jet, generator=g)
    jphi = torch.gather(axis_phi, 1, which) + 0.15 * torch.randn(e, n_jet, generator=g)
    phi[:, :n_jet] = torch.remainder(jphi + math.pi, 2.0 * math.pi) - math.pi
    pt[:, :n_jet] = pt[:, :n_jet] + torch.empty(e, n_jet).exponential_(1.0 / 15.0, generator=g)
    pad = torch.arange(n)[None, :] >= n_part[:, None].long()
    pt[pad], y[pad], phi[pad] = 0.0, 0.0, 0.0
    to = lambda t: t.to(device=device, dtype=dt).contiguous()
    return to(pt), to(y), to(phi), n_part.to(device), 0.4


def reference(pt: torch.Tensor, y: torch.Tensor, phi: torch.Tensor, n_part: torch.Tensor, r: float) -> torch.Tensor:
    e, n = pt.shape
    pt, y, phi = pt.double(), y.double(), phi.double()
    slots = torch.arange(n, device=pt.device)
    valid = slots[None, :] < n_part[:, None].long()
    dib = torch.where(valid, 1.0 / torch.where(valid, pt * pt, torch.ones_like(pt)), torch.zeros_like(pt))
    out = torch.zeros(e, n, dtype=torch.float64, device=pt.device)
    for ev in range(e):
        m = int(n_part[ev])
        dy = y[ev, :m, None] - y[ev, None, :m]
        dphi = (phi[ev, :m, None] - phi[ev, None, :m]).abs()
        dphi = torch.where(dphi > math.pi, 2.0 * math.pi - dphi, dphi)
        dij = torch.minimum(dib[ev, :m, None], dib[ev, None, :m]) * (dy * dy + dphi * dphi) / (r * r)
        dij.fill_diagonal_(float("inf"))
        out[ev, :m] = torch.minimum(dib[ev, :m], dij.min(dim=1).values)
    return out.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["E"] * s["N"] * 4, "flops": 12 * s["E"] * s["N"] * s["N"]}
