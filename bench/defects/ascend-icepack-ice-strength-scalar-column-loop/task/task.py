"""Rothrock (1975) ice strength of Icepack (icepack_ice_strength, kstrength = 1), as CICE calls it per T cell.

For every ice-covered cell with open-water fraction aice0 and ncat thickness categories (aicen, vicen):
  Gsum(-1) = 0, Gsum(0) = aice0 (if > puny), Gsum(n) = Gsum(n-1) + aicen(n) (categories with aicen > puny),
  normalised by Gsum(ncat); exponential participation (krdg_partic = 1, astar = 0.05):
      apartic(n) = [exp(-Gsum(n-1)/astar) - exp(-Gsum(n)/astar)] / [1 - exp(-1/astar)],   n = 0..ncat
  exponential ridge redistribution (krdg_redist = 1, mu_rdg = 3 m^0.5, maxraft = 1 m), for aicen(n) > puny:
      hi = vicen/aicen, hrmin = min(2 hi, hi + maxraft), hrexp = mu_rdg sqrt(hi), krdg = (hrmin + hrexp)/hi
  aksum    = apartic(0) + sum_n apartic(n) (1 - 1/krdg(n))
  strength = Cf Cp sum_n apartic(n) (-hi^2 + (hrmin^2 + 2 hrmin hrexp + 2 hrexp^2)/krdg(n)) / aksum
with Cf = 17 and Cp = g/2 (rhow - rhoi) rhoi/rhow (g = 9.80616, rhoi = 917, rhow = 1026).
Arrays follow CICE's aicen(nx_block, ny_block, ncat, iblk) order: category-major, cells contiguous.
"""
import math

import torch

META = {
    "name": "icepack_ice_strength",
    "level": 2,
    "category": "column-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-1, "rtol": 1e-4}},
    "sizes": {
        "small": {"ncell": 48, "ncat": 5},
        "ragged": {"ncell": 75, "ncat": 5},
        "large": {"ncell": 3600 * 2400, "ncat": 5},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 1024 cells; per block one pass "
                      "over the categories sums the participating area, a second pass carries the running "
                      "Gsum and the previous exp term as [1024] vectors and accumulates aksum and the "
                      "potential-energy sum; one store per block; no autotune.",
    "deterministic": True,
}

# CICE kcatbound = 0 category boundaries for ncat = 5 (m)
HIN_MAX = (0.0, 0.6446, 1.3914, 2.4702, 4.5673, 9.3329)
PUNY = 1.0e-11
ASTAR = 0.05
MAXRAFT = 1.0
MU_RDG = 3.0
CF = 17.0
CP = 0.5 * 9.80616 * (1026.0 - 917.0) * 917.0 / 1026.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """aice0 [ncell], aicen [ncat, ncell], vicen [ncat, ncell]: ~70 % ice-covered cells with a random
    ITD (some categories empty), the rest open water; a few cells fully covered (aice0 = 0)."""
    s = META["sizes"][size]
    n, ncat = s["ncell"], s["ncat"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    icy = torch.rand(n, generator=g) < 0.7
    aice = torch.where(torch.rand(n, generator=g) < 0.08, torch.ones(n),
                       0.15 + 0.85 * torch.rand(n, generator=g)) * icy
    share = torch.rand(ncat, n, generator=g) * (torch.rand(ncat, n, generator=g) < 0.75)
    share[torch.randint(0, ncat, (n,), generator=g), torch.arange(n)] += 0.5
    aicen = share / share.sum(0, keepdim=True) * aice
    lo = torch.tensor(HIN_MAX[:ncat])[:, None] if ncat == 5 else torch.linspace(0, 4, ncat)[:, None]
    hi_top = torch.tensor(HIN_MAX[1:ncat + 1])[:, None] if ncat == 5 else lo + 1.0
    hin = lo + 0.02 + (hi_top - lo - 0.04) * torch.rand(ncat, n, generator=g)
    vicen = aicen * hin
    aice0 = (1.0 - aicen.sum(0)).clamp(min=0.0)
    return aice0.to(device=device, dtype=dt), aicen.to(device=device, dtype=dt), vicen.to(device=device, dtype=dt)


def reference(aice0: torch.Tensor, aicen: torch.Tensor, vicen: torch.Tensor) -> torch.Tensor:
    a0, an, vn = aice0.double(), aicen.double(), vicen.double()
    pos = an > PUNY
    g0 = torch.where(a0 > PUNY, a0, torch.zeros_like(a0))
    gcum = torch.cat([g0[None], g0[None] + torch.cumsum(torch.where(pos, an, torch.zeros_like(an)), 0)], 0)
    total = gcum[-1]
    gcum = torch.where(total > 0, gcum / torch.where(total > 0, total, torch.ones_like(total)), gcum)
    xtmp = 1.0 / (1.0 - math.exp(-1.0 / ASTAR))
    ex = torch.exp(-gcum / ASTAR) * xtmp
    ex = torch.cat([torch.full_like(ex[:1], xtmp), ex], 0)
    apartic = ex[:-1] - ex[1:]                                  # [ncat + 1]
    hi = torch.where(pos, vn / torch.where(pos, an, torch.ones_like(an)), torch.ones_like(an))
    hic = hi.clamp(min=PUNY)
    hrmin = torch.minimum(2.0 * hic, hic + MAXRAFT)
    hrexp = MU_RDG * hic.sqrt()
    krdg = torch.where(pos, (hrmin + hrexp) / hic, torch.ones_like(hic))
    aksum = apartic[0] + (apartic[1:] * (1.0 - 1.0 / krdg)).sum(0)
    h2rdg = hrmin * hrmin + 2.0 * hrmin * hrexp + 2.0 * hrexp * hrexp
    dh2rdg = -hi * hi + h2rdg / krdg
    ap = apartic[1:]
    pe = torch.where(pos & (ap > 0), ap * dh2rdg, torch.zeros_like(ap)).sum(0)
    return (CF * CP * pe / aksum).to(aice0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, ncat = s["ncell"], s["ncat"]
    return {"bytes": 4 * n * (2 + 2 * ncat), "flops": 40 * n * ncat}
