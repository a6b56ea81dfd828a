"""Isochoric saturation adjustment of ICON-NWP (mo_satad.f90, satad_v_3D) over all grid points.

Per point (T, qv, qc, rho): if the air stays unsaturated after evaporating all cloud water,
evaporate it; otherwise find the temperature where qv = qsat(T, rho) with Newton's method on
f(T) = T - T0 + lwdocvd * (qsat(T, rho) - qv0), then qv = qsat(T), qc = qv0 + qc0 - qv.
Saturation over water: e_s = b1 exp(b2w (T - b3) / (T - b4w)), qsat = e_s / (rho Rv T).
"""
import torch

META = {
    "name": "icon_satad_v_3d",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"NLEV": 6, "NCELL": 700},
        "ragged": {"NLEV": 7, "NCELL": 1999},
        "large": {"NLEV": 90, "NCELL": 1310720},
    },
    "baseline_notes": "Flat elementwise kernel over NLEV*NCELL, BLOCK=1024: fp32 loads and math, 6 unconditional "
                      "Newton iterations for every point, tl.where between the evaporation and the adjustment "
                      "branch, three fp32 stores; no autotune.",
    "deterministic": True,
}

RV = 461.51
CVD = 1004.64 - 287.04
ALV = 2.5008e6
CPV = 1869.46
CLW = 4192.6641
TMELT = 273.15
B1, B2W, B3, B4W = 610.78, 17.269, 273.15, 35.86
NEWTON_ITERS = 6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """T, qv, qc, rho: [NLEV, NCELL] (K, kg/kg, kg/kg, kg/m^3)."""
    s = META["sizes"][size]
    nlev, ncell = s["NLEV"], s["NCELL"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sigma = torch.linspace(0.05, 1.0, nlev, dtype=torch.float64)[:, None]
    p = 1.0e5 * sigma * (1.0 + 0.02 * torch.randn(nlev, ncell, generator=g, dtype=torch.float64))
    t = 215.0 + 85.0 * sigma ** 0.6 + 4.0 * torch.randn(nlev, ncell, generator=g, dtype=torch.float64)
    rho = p / (287.04 * t)
    qs = B1 * torch.exp(B2W * (t - B3) / (t - B4W)) / (rho * RV * t)
    rh = 0.55 + 0.6 * torch.rand(nlev, ncell, generator=g, dtype=torch.float64)
    qv = rh * qs
    cloudy = torch.rand(nlev, ncell, generator=g, dtype=torch.float64) < 0.4
    qc = torch.where(cloudy, 0.3 * qs * torch.rand(nlev, ncell, generator=g, dtype=torch.float64), 0.0)
    return tuple(x.to(dt).contiguous().to(device) for x in (t, qv, qc, rho))


def _qsat(t, rho):
    return B1 * torch.exp(B2W * (t - B3) / (t - B4W)) / (rho * RV * t)


def reference(t: torch.Tensor, qv: torch.Tensor, qc: torch.Tensor, rho: torch.Tensor) -> tuple:
    t0, qv0, qc0, r = t.double(), qv.double(), qc.double(), rho.double()
    lwdocvd = (ALV + (CPV - CLW) * (t0 - TMELT) - RV * t0) / CVD
    qt = qv0 + qc0
    t_dry = t0 - lwdocvd * qc0
    dry = qt <= _qsat(t_dry, r)
    tw = t0
    b234w = B2W * (B3 - B4W)
    for _ in range(NEWTON_ITERS):
        qw = _qsat(tw, r)
        dqw = qw * (b234w / (tw - B4W) ** 2 - 1.0 / tw)
        f = tw - t0 + lwdocvd * (qw - qv0)
        tw = tw - f / (1.0 + lwdocvd * dqw)
    qw = _qsat(tw, r)
    t_new = torch.where(dry, t_dry, tw)
    qv_new = torch.where(dry, qt, qw)
    qc_new = torch.where(dry, 0.0, torch.clamp(qt - qw, min=0.0))
    return t_new.to(t.dtype), qv_new.to(t.dtype), qc_new.to(t.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NLEV"] * s["NCELL"]
    return {"bytes": 28 * n, "flops": (20 + 18 * NEWTON_ITERS) * n}
