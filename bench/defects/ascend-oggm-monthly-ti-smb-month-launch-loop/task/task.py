"""Annual surface mass balance on glacier flowlines, OGGM's monthly temperature-index model.

OGGM's MonthlyTIModel.get_annual_mb evaluated for a batch of glaciers at once. Glacier g has a
flowline of N points at elevations z[g, i] and a monthly climate series at its reference height
ref_hgt[g] (temperature temp[m, g] in degC with the temperature bias applied, precipitation
prcp[m, g] in kg m-2 month-1 with the precipitation factor applied), months m = 0..11 of the
hydrological year. For every point and month:
    T      = temp[m, g] + temp_grad * (z - ref_hgt[g])          temp_grad = -0.0065 K m-1
    tmelt  = max(T - t_melt, 0)                                 t_melt = -1 degC
    fsol   = clip(1 - (T - t_solid) / (t_liq - t_solid), 0, 1)  t_solid = 0, t_liq = 2 degC
    mb_m   = prcp[m, g] * fsol - melt_f[g] * 365/12 * tmelt     kg m-2 month-1
and the annual balance is mb[g, i] = sum_m mb_m - bias[g] in kg m-2 yr-1 (mm w.e. per year;
OGGM's get_annual_mb returns it divided by SEC_IN_YEAR * rho_ice, i.e. in m of ice per second).
melt_f is the calibrated melt factor in kg m-2 day-1 K-1.
"""
import torch

META = {
    "name": "oggm_monthly_ti_annual_mb",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"G": 6, "N": 40},
        "ragged": {"G": 11, "N": 77},
        "large": {"G": 16384, "N": 256},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 8 glaciers x the whole "
                      "flowline (BN = next_power_of_2(N)); each block loads its elevations once, keeps the "
                      "annual sum in registers over an in-kernel loop of the 12 months (per-month climate "
                      "loaded as contiguous [8] vectors from the month-major tables) and stores once; one "
                      "launch, no autotune.",
    "deterministic": True,
}

TEMP_GRAD = -0.0065
T_MELT = -1.0
T_SOLID = 0.0
T_LIQ = 2.0
DAYS_PER_MONTH = 365.0 / 12.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [G, N] flowline elevations (m, top to terminus), temp [12, G] (degC), prcp [12, G]
    (kg m-2 month-1), ref_hgt [G] (m), melt_f [G] (kg m-2 day-1 K-1), bias [G] (kg m-2 yr-1)."""
    s = META["sizes"][size]
    G, N = s["G"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    terminus = 400.0 + 2600.0 * torch.rand(G, generator=g)
    top = terminus + 200.0 + 1800.0 * torch.rand(G, generator=g)
    frac = torch.linspace(0.0, 1.0, N)
    bumps = 15.0 * torch.randn(G, N, generator=g)
    z = top[:, None] - (top - terminus)[:, None] * frac[None, :] + bumps
    ref_hgt = 0.5 * (top + terminus) + 300.0 * torch.randn(G, generator=g)
    # hydrological year Oct..Sep: warmest month (July) is index 9
    month = torch.arange(12, dtype=torch.float32)
    t_ann = -8.0 + 7.0 * torch.rand(G, generator=g)
    amp = 6.0 + 8.0 * torch.rand(G, generator=g)
    temp = t_ann[None, :] + amp[None, :] * torch.cos(2.0 * torch.pi * (month[:, None] - 9.0) / 12.0)
    temp = temp + 0.8 * torch.randn(12, G, generator=g)
    prcp = (40.0 + 260.0 * torch.rand(1, G, generator=g)) * (0.6 + 0.8 * torch.rand(12, G, generator=g))
    melt_f = 2.0 + 8.0 * torch.rand(G, generator=g)
    bias = 150.0 * torch.randn(G, generator=g)
    out = (z, temp, prcp, ref_hgt, melt_f, bias)
    return tuple(t.to(dt).contiguous().to(device) for t in out)


def reference(z, temp, prcp, ref_hgt, melt_f, bias) -> torch.Tensor:
    zd, td, pd = z.double(), temp.double(), prcp.double()
    t = td.t()[:, None, :] + TEMP_GRAD * (zd - ref_hgt.double()[:, None])[:, :, None]   # [G, N, 12]
    tmelt = torch.clamp(t - T_MELT, min=0.0)
    fsol = torch.clamp(1.0 - (t - T_SOLID) / (T_LIQ - T_SOLID), 0.0, 1.0)
    mb = pd.t()[:, None, :] * fsol - (melt_f.double() * DAYS_PER_MONTH)[:, None, None] * tmelt
    return (mb.sum(dim=-1) - bias.double()[:, None]).to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    G, N = s["G"], s["N"]
    return {"bytes": 8 * G * N + 4 * (24 * G + 3 * G), "flops": 12 * 12 * G * N}
