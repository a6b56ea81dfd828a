"""Anti-kt nearest-neighbour initialisation of FastJet's N^2 clustering, for a padded batch of events.

Every event e holds mult[e] particles (rapidity y, azimuth phi in [0, 2pi), transverse momentum pT) in the
first mult[e] slots of rows padded to the batch's largest multiplicity NMAX. For each particle i, as
FastJet's _bj_set_jetinfo / NN search does before the first merge:
    NN_dist_i = min(R^2, min_{j != i} dR2_ij),   dR2_ij = (y_i - y_j)^2 + dphi_ij^2,
                dphi_ij = |phi_i - phi_j| folded to [0, pi]
    NN_i      = the j attaining it when it is below R^2 (lowest index on ties), else -1
    diJ_i     = NN_dist_i * min(kt2_i, kt2_NN)   (kt2 = pT^-2 for anti-kt; kt2_i alone when NN_i = -1)
Returns (NN [E, NMAX] int32, diJ [E, NMAX] float32); padded slots hold -1 and 0.
"""
import math

import torch

META = {
    "name": "antikt_nn_init",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"E": 3, "NMAX": 80, "median": 40, "R": 0.4},
        "ragged": {"E": 5, "NMAX": 123, "median": 60, "R": 0.4},
        "large": {"E": 4096, "NMAX": 1024, "median": 250, "R": 0.4},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over events; per event, blocks of 32 particles "
                      "against tiles of 64 partners up to the event's own multiplicity: dR2 tile, row min and "
                      "lowest-index argmin, the partner's kt2 picked with the argmin, carried across tiles; "
                      "row blocks past the multiplicity skip the partner loop and only write the padding "
                      "values -1 / 0; no autotune.",
    "deterministic": True,
}
Y_MAX = 4.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rap, phi, pt [E, NMAX] (zero padding), mult [E] int32, R (float)."""
    s = META["sizes"][size]
    n_ev, nmax = s["E"], s["NMAX"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mult = torch.exp(math.log(s["median"]) + 0.5 * torch.randn(n_ev, generator=g)).round().long()
    mult = mult.clamp(8, nmax)
    mult[torch.argmax(mult)] = nmax          # the batch is padded to its largest event
    rap = (torch.rand(n_ev, nmax, generator=g) * 2.0 - 1.0) * Y_MAX
    phi = torch.rand(n_ev, nmax, generator=g) * (2.0 * math.pi)
    pt = 0.5 + torch.empty(n_ev, nmax).exponential_(1.0 / 3.0, generator=g)
    live = torch.arange(nmax)[None, :] < mult[:, None]
    rap, phi, pt = (torch.where(live, v, torch.zeros(())).to(dt).to(device) for v in (rap, phi, pt))
    return rap, phi, pt, mult.to(torch.int32).to(device), float(s["R"])


def reference(rap, phi, pt, mult, R):
    n_ev, nmax = rap.shape
    nn = torch.full((n_ev, nmax), -1, dtype=torch.int32, device=rap.device)
    dij = torch.zeros((n_ev, nmax), dtype=rap.dtype, device=rap.device)
    r2 = torch.tensor(R * R, dtype=torch.float32)
    for e in range(n_ev):
        n = int(mult[e])
        y, f, kt2 = rap[e, :n].float(), phi[e, :n].float(), 1.0 / (pt[e, :n].double() ** 2)
        dy = y[:, None] - y[None, :]
        dphi = (f[:, None] - f[None, :]).abs()
        dphi = torch.where(dphi > math.pi, 2.0 * math.pi - dphi, dphi)
        d = dy * dy + dphi * dphi
        d.fill_diagonal_(float("inf"))
        dmin, jmin = d.min(dim=1)
        has = dmin < r2
        dist = torch.where(has, dmin, r2).double()
        kt_nn = torch.where(has, kt2[jmin.clamp(min=0)], kt2)
        nn[e, :n] = torch.where(has, jmin, torch.full_like(jmin, -1)).to(torch.int32)
        dij[e, :n] = (dist * torch.minimum(kt2, kt_nn)).to(rap.dtype)
    return nn, dij


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 20 * s["E"] * s["NMAX"], "flops": 20 * s["E"] * s["NMAX"] ** 2}
