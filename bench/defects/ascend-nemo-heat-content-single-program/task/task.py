"""Global ocean heat content, volume and volume-mean temperature of NEMO (dia_hsb / CDFTOOLS cdfheatc).

NEMO's global heat budget diagnostic integrates the land-sea masked temperature over the whole ocean:
    HC   = rho0 * rcp * sum_{k,j,i} tmask * e1e2t * e3t * T      (J)
    V    = sum_{k,j,i} tmask * e1e2t * e3t                       (m3)
    Tbar = HC / (rho0 * rcp * V)                                  (degC)
with rho0 = 1026 kg m-3 and rcp = 3991.86795711963 J kg-1 K-1 (NEMO's constants). T, e3t (partial-step
cell thicknesses) and tmask (0/1, land and below the sea floor 0) are the C-order view [jpk, jpj, jpi] of
NEMO's (jpi, jpj, jpk) arrays; e1e2t [jpj, jpi] is the horizontal cell area. Returns fp32 [3] = (HC, V, Tbar).
"""
import math

import torch

META = {
    "name": "nemo_global_heat_content",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"jpi": 30, "jpj": 17, "jpk": 6},
        "ragged": {"jpi": 37, "jpj": 23, "jpk": 9},
        "large": {"jpi": 362, "jpj": 332, "jpk": 75},
    },
    "baseline_notes": "40 programs (the A2's vector cores) stride over blocks of 1024 water columns; each "
                      "loads the block's e1e2t once and walks the jpk levels with contiguous [1024] loads of "
                      "T, e3t and tmask, accumulating T*w and w (w = tmask*e1e2t*e3t) in two fp32 register "
                      "vectors; per-program partial sums go to a [2, 40] buffer that a one-program launch "
                      "sums in fixed order (reproducible, like NEMO's glob_sum); no atomics, no autotune.",
    "deterministic": True,
}
RHO0 = 1026.0
RCP = 3991.86795711963


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """T [jpk, jpj, jpi] (degC), e3t [jpk, jpj, jpi] (m), tmask [jpk, jpj, jpi] (0/1), e1e2t [jpj, jpi] (m2)."""
    s = META["sizes"][size]
    ni, nj, nk = s["jpi"], s["jpj"], s["jpk"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lat = torch.linspace(-78.0, 89.0, nj)
    e1 = 111.2e3 * (360.0 / ni) * torch.cos(torch.deg2rad(lat)).clamp(min=0.02)       # [jpj]
    e2 = 111.2e3 * (167.0 / nj)
    e1e2t = (e1 * e2)[:, None] * (1.0 + 0.05 * torch.rand(nj, ni, generator=g))
    # L75-like z levels: ~1 m at the surface growing to ~200 m at depth (scaled to reach ~5.9 km with nk levels)
    dz = torch.logspace(0.0, 2.3, nk) * (5900.0 / torch.logspace(0.0, 2.3, nk).sum())
    bottom = torch.cumsum(dz, 0)
    depth = (4500.0 + 1500.0 * torch.randn(nj, ni, generator=g)).clamp(max=5800.0)
    depth[torch.rand(nj, ni, generator=g) < 0.32] = 0.0                       # land
    kbot = torch.searchsorted(bottom, depth.reshape(-1)).reshape(nj, ni).clamp(max=nk)  # wet levels per column
    k = torch.arange(nk)[:, None, None]
    tmask = (k < kbot[None]).float()
    e3t = dz[:, None, None].expand(nk, nj, ni).clone()
    # partial bottom cells: the deepest wet level is cut to the sea floor
    top_of_bottom = torch.cat([torch.zeros(1), bottom])[kbot.clamp(min=1) - 1]
    partial = (depth - top_of_bottom).clamp(min=0.1 * dz.min())
    kb = (kbot - 1).clamp(min=0)
    e3t.scatter_(0, kb[None], torch.minimum(partial, dz[kb])[None])
    sst = 28.0 * torch.cos(torch.deg2rad(lat)) ** 2 - 1.5
    zc = (bottom - 0.5 * dz)[:, None, None]
    T = 1.0 + (sst[None, :, None] - 1.0) * torch.exp(-zc / 900.0) + 0.3 * torch.randn(nk, nj, ni, generator=g)
    T = T * tmask                                                            # NEMO keeps 0 on land
    cast = lambda t: t.to(dt).to(device)
    return cast(T), cast(e3t), cast(tmask), cast(e1e2t)


def reference(T: torch.Tensor, e3t: torch.Tensor, tmask: torch.Tensor, e1e2t: torch.Tensor) -> torch.Tensor:
    w = tmask.double() * e3t.double() * e1e2t.double()[None]
    sum_tw, vol = (T.double() * w).sum(), w.sum()
    hc = RHO0 * RCP * sum_tw
    return torch.stack([hc, vol, sum_tw / vol]).to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["jpi"] * s["jpj"] * s["jpk"]
    return {"bytes": 12 * n + 4 * s["jpi"] * s["jpj"], "flops": 5 * n}
