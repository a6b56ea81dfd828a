"""SI3 (NEMO sea ice) EVP rheology, T-point part of one sub-iteration (icedyn_rhg_evp.F90, C grid, aEVP).

At every interior T point (ji, jj) of a [jpj, jpi] field (row jj, column ji; one halo row/column around):
  zds2   = ( (zds^2 e1e2f)(ji,jj) + (zds^2 e1e2f)(ji-1,jj) + (zds^2 e1e2f)(ji,jj-1) + (zds^2 e1e2f)(ji-1,jj-1) )
           * 0.25 r1_e1e2t                                   shear^2 averaged from the four F points
  zdiv   = ( e2u u(ji,jj) - e2u u(ji-1,jj) + e1v v(ji,jj) - e1v v(ji,jj-1) ) r1_e1e2t
  zdt    = ( (u r1_e2u)(ji,jj) - (u r1_e2u)(ji-1,jj) ) e2t^2 - ( (v r1_e1v)(ji,jj) - (v r1_e1v)(ji,jj-1) ) e1t^2 ) r1_e1e2t
  zdelta = sqrt(zdiv^2 + (zdt^2 + zds2) / ecc^2) zmsk,      zp_delt = strength / (zdelta + creepl) zmsk
  alpha  = max(50, pi sqrt(0.5 zp_delt r1_e1e2t zdt_m))       (aEVP, Kimmritz et al. 2016)
  zs1'   = (zs1 alpha + zp_delt (zdiv - zdelta)) / (alpha + 1) zmsk
  zs2'   = (zs2 alpha + zp_delt zdt / ecc^2) / (alpha + 1) zmsk
with ecc = 2, creepl = 2e-9 s-1 and no landfast tensile term. Returns (zs1', zs2', zp_delt) on the
interior points, each [jpj - 2, jpi - 2].
"""
import math

import torch

META = {
    "name": "si3_evp_tpoint_stress",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-1, "rtol": 1e-4}},
    "sizes": {
        "small": {"jpj": 12, "jpi": 20},
        "ragged": {"jpj": 15, "jpi": 37},
        "large": {"jpj": 1207, "jpi": 1442},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over [8, 64] tiles of interior T points, rows jj "
                      "on axis 0 and the contiguous ji on the last axis; the ji-1 / jj-1 neighbours are the same "
                      "tile shifted by 1 and jpi; three stores per tile; no autotune.",
    "deterministic": True,
}
ECC2_INV = 0.25
CREEPL = 2.0e-9
NAMES = ("u_ice", "v_ice", "zds", "zs1", "zs2", "strength", "zmsk", "zdt_m",
         "e1t", "e2t", "e2u", "e1v", "r1_e2u", "r1_e1v", "e1e2f", "r1_e1e2t")


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The 16 fields named in NAMES, each [jpj, jpi] (C order: jj rows, ji contiguous)."""
    s = META["sizes"][size]
    jpj, jpi = s["jpj"], s["jpi"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lat = torch.linspace(-78.0, 89.0, jpj)[:, None].expand(jpj, jpi)
    scale = 27750.0 * (0.15 + 0.85 * torch.cos(torch.deg2rad(lat)))        # quarter-degree Mercator-like
    jit = lambda: 1.0 + 0.05 * torch.rand(jpj, jpi, generator=g)
    e1t, e2t, e2u, e1v = scale * jit(), scale * jit(), scale * jit(), scale * jit()
    e1e2f = scale * scale * jit()
    r1_e2u, r1_e1v, r1_e1e2t = 1.0 / e2u, 1.0 / e1v, 1.0 / (e1t * e2t)
    u_ice = 0.12 * torch.randn(jpj, jpi, generator=g)
    v_ice = 0.12 * torch.randn(jpj, jpi, generator=g)
    zds = 4.0e-6 * torch.randn(jpj, jpi, generator=g)
    ice = torch.rand(jpj, jpi, generator=g) < 0.8
    zmsk = ice.float()
    hice = 0.1 + 3.0 * torch.rand(jpj, jpi, generator=g)
    at_i = 0.15 + 0.85 * torch.rand(jpj, jpi, generator=g)
    strength = 2.0e4 * hice * at_i * torch.exp(-20.0 * (1.0 - at_i)) * zmsk
    zdt_m = (720.0 / 100.0) / torch.clamp(917.0 * hice * at_i, min=1.0)       # dt_evp / ice mass
    zs1 = 1.0e4 * torch.randn(jpj, jpi, generator=g) * zmsk
    zs2 = 5.0e3 * torch.randn(jpj, jpi, generator=g) * zmsk
    fields = (u_ice, v_ice, zds, zs1, zs2, strength, zmsk, zdt_m, e1t, e2t, e2u, e1v, r1_e2u, r1_e1v, e1e2f, r1_e1e2t)
    return tuple(f.to(device=device, dtype=dt).contiguous() for f in fields)


def reference(u_ice, v_ice, zds, zs1, zs2, strength, zmsk, zdt_m,
              e1t, e2t, e2u, e1v, r1_e2u, r1_e1v, e1e2f, r1_e1e2t):
    d = lambda t: t.double()
    X = lambda a: a[1:-1, 1:-1]          # (ji, jj)
    W = lambda a: a[1:-1, :-2]           # (ji-1, jj)
    S = lambda a: a[:-2, 1:-1]           # (ji, jj-1)
    SW = lambda a: a[:-2, :-2]           # (ji-1, jj-1)
    u, v, rt = d(u_ice), d(v_ice), X(d(r1_e1e2t))
    f = d(zds) * d(zds) * d(e1e2f)
    zds2 = ((X(f) + W(f)) + (S(f) + SW(f))) * 0.25 * rt
    eu, ev = d(e2u) * u, d(e1v) * v
    zdiv = ((X(eu) - W(eu)) + (X(ev) - S(ev))) * rt
    ur, vr = u * d(r1_e2u), v * d(r1_e1v)
    zdt = ((X(ur) - W(ur)) * X(d(e2t)) ** 2 - (X(vr) - S(vr)) * X(d(e1t)) ** 2) * rt
    msk = X(d(zmsk))
    zdelta = torch.sqrt(zdiv * zdiv + (zdt * zdt + zds2) * ECC2_INV) * msk
    zp_delt = X(d(strength)) / (zdelta + CREEPL) * msk
    alpha = torch.clamp(math.pi * torch.sqrt(0.5 * zp_delt * rt * X(d(zdt_m))), min=50.0)
    inv = 1.0 / (alpha + 1.0)
    s1 = (X(d(zs1)) * alpha + zp_delt * (zdiv - zdelta)) * inv * msk
    s2 = (X(d(zs2)) * alpha + zp_delt * (zdt * ECC2_INV)) * inv * msk
    return tuple(o.to(u_ice.dtype) for o in (s1, s2, zp_delt))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["jpj"] - 2) * (s["jpi"] - 2)
    return {"bytes": 4 * n * (16 + 3), "flops": 60 * n}
