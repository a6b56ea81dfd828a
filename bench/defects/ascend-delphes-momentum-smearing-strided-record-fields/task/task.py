"""Delphes MomentumSmearing of charged-particle tracks (fast detector simulation), one pass over a batch.

Every candidate is a Delphes-style record of 8 fp32 values: the Momentum four-vector (px, py, pz, E)
and the Position four-vector (x, y, z, t) of its production vertex. The module smears the transverse
momentum with a log-normal of relative width sigma(pT, |eta|) and keeps eta and phi, as
MomentumSmearing::Process does:
    res  = resolution formula of the CMS-card form (per |eta| region: sqrt(a^2 + (b * pT)^2), pT > 0.1 GeV,
           |eta| <= 2.5, else 0)
    b    = sqrt(log(1 + res^2)),  a = log(pT) - b^2 / 2,  pT' = exp(a + b * g)   (Delphes LogNormal(pT, res*pT))
    Momentum.SetPtEtaPhiE(pT', eta, phi, pT' cosh(eta))
i.e. (px, py, pz) are scaled by r = pT'/pT and E becomes r * |p| (massless). The position is copied.
g are standard normal deviates drawn beforehand (gRandom->Gaus(0, 1) in Delphes).
"""
import math

import torch

META = {
    "name": "delphes_momentum_smearing",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 777},
        "large": {"N": 4194304},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 records; each block is one "
                      "contiguous [256, 8] tile load (32-byte rows), the momentum fields are picked out on chip, "
                      "and the updated [256, 8] tile is stored in one contiguous transfer; no autotune.",
    "deterministic": True,
}

# resolution formula regions: (|eta| upper edge, constant term, pT slope term)
REGIONS = ((0.5, 0.006, 1.3e-4), (1.5, 0.010, 1.7e-4), (2.5, 0.025, 3.1e-4))
PION_MASS = 0.13957


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cands [N, 8] (px, py, pz, E, x, y, z, t) and gauss [N] standard normal deviates."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pt = 0.2 + torch.empty(n, dtype=torch.float64).exponential_(1.0 / 4.0, generator=g)
    hard = torch.rand(n, generator=g, dtype=torch.float64) < 0.02
    pt = torch.where(hard, pt * 40.0, pt)
    eta = (torch.rand(n, generator=g, dtype=torch.float64) * 2.0 - 1.0) * 3.0
    phi = (torch.rand(n, generator=g, dtype=torch.float64) * 2.0 - 1.0) * math.pi
    px, py, pz = pt * torch.cos(phi), pt * torch.sin(phi), pt * torch.sinh(eta)
    e = torch.sqrt(px * px + py * py + pz * pz + PION_MASS ** 2)
    vx = torch.randn(n, generator=g, dtype=torch.float64) * 0.01
    vy = torch.randn(n, generator=g, dtype=torch.float64) * 0.01
    vz = torch.randn(n, generator=g, dtype=torch.float64) * 50.0
    vt = torch.randn(n, generator=g, dtype=torch.float64) * 60.0
    cands = torch.stack([px, py, pz, e, vx, vy, vz, vt], dim=1)
    gauss = torch.randn(n, generator=g, dtype=torch.float64)
    return cands.to(dt).contiguous().to(device), gauss.to(dt).to(device)


def reference(cands: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    c = cands.double()
    px, py, pz = c[:, 0], c[:, 1], c[:, 2]
    pt = torch.sqrt(px * px + py * py)
    p = torch.sqrt(pt * pt + pz * pz)
    abseta = torch.log((p + pz.abs()) / pt)
    res = torch.zeros_like(pt)
    lo = 0.0
    for hi, a, b in REGIONS:
        inside = (abseta > lo) & (abseta <= hi) if lo > 0.0 else (abseta <= hi)
        res = torch.where(inside & (pt > 0.1), torch.sqrt(a * a + (b * pt) ** 2), res)
        lo = hi
    bw = torch.sqrt(torch.log1p(res * res))
    r = torch.exp(bw * (gauss.double() - 0.5 * bw))
    out = c.clone()
    out[:, 0:3] = c[:, 0:3] * r[:, None]
    out[:, 3] = p * r
    return out.to(cands.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 68 * n, "flops": 40 * n}
