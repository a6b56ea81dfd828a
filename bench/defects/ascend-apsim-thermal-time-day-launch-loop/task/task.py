"""Daily thermal time of crop phenology on a gridded crop model (APSIM / DSSAT CERES 3-hourly method).

For every grid cell c and day d of the season, the daily thermal time is the mean over 8 three-hourly
air temperatures interpolated between the day's minimum and maximum (APSIM's temp_3hr / DSSAT CERES' TMFAC):
    tmfac_p = 0.92105 + 0.1140 p - 0.0703 p^2 + 0.0053 p^3,    p = 1..8
    T_p     = tmin + tmfac_p (tmax - tmin)
put through the crop's cardinal-temperature response (APSIM wheat: 0 below tbase, T - tbase up to topt,
falling linearly to 0 at tmax_c):
    f(T) = 0                                        T <= tbase or T >= tmax_c
         = T - tbase                                tbase < T <= topt
         = (topt - tbase) (tmax_c - T) / (tmax_c - topt)   topt < T < tmax_c
    tt[d, c] = mean_p f(T_p)
Thermal time accumulates from the cell's sowing day on (0 before it); the output is the cumulative thermal
time cum[d, c] = sum_{d' <= d, d' >= sow[c]} tt[d', c] that the phenology compares with the stage targets.
Weather rasters are day-major ([days, cells], one raster per day as the gridded forcing is read).
"""
import torch

META = {
    "name": "thermal_time_accumulation",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"D": 12, "N": 96},
        "ragged": {"D": 9, "N": 131},
        "large": {"D": 365, "N": 67420},
    },
    "baseline_notes": "One launch of min(40, blocks) programs (the A2's vector cores), each looping over blocks of "
                      "1024 cells and, inside, over the D days: two 4 KiB row loads per day, the 8 three-hourly "
                      "temperatures unrolled, the running sum kept in registers and stored once per day; "
                      "no autotune.",
    "deterministic": True,
}

# APSIM wheat cardinal temperatures for thermal time (deg C)
TBASE, TOPT, TMAXC = 0.0, 26.0, 34.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tmax [D, N], tmin [D, N] (deg C), sowing day sow [N] int32, cardinal temperatures (floats)."""
    s = META["sizes"][size]
    D, N = s["D"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    day = torch.arange(D, dtype=torch.float32)[:, None]
    lat_shift = torch.rand(1, N, generator=g) * 20.0
    seasonal = 14.0 - 12.0 * torch.cos(2 * torch.pi * (day - 15.0) / 365.0) - lat_shift
    tmin = seasonal + 2.5 * torch.randn(D, N, generator=g)
    tmax = tmin + 6.0 + 8.0 * torch.rand(D, N, generator=g)
    sow = torch.randint(0, max(1, D // 2), (N,), generator=g, dtype=torch.int32)
    return (tmax.to(dt).to(device), tmin.to(dt).to(device), sow.to(device), TBASE, TOPT, TMAXC)


def reference(tmax, tmin, sow, tbase, topt, tmaxc):
    hi, lo = tmax.double(), tmin.double()
    tt = torch.zeros_like(hi)
    for p in range(1, 9):
        fac = 0.92105 + 0.1140 * p - 0.0703 * p * p + 0.0053 * p * p * p
        t = lo + fac * (hi - lo)
        rise = t - tbase
        fall = (topt - tbase) * (tmaxc - t) / (tmaxc - topt)
        f = torch.where(t <= topt, rise, fall)
        f = torch.where((t <= tbase) | (t >= tmaxc), torch.zeros_like(f), f)
        tt = tt + f
    tt = tt / 8.0
    days = torch.arange(hi.shape[0], device=hi.device)[:, None]
    tt = torch.where(days >= sow.long()[None, :], tt, torch.zeros_like(tt))
    return torch.cumsum(tt, dim=0).to(tmax.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    D, N = s["D"], s["N"]
    return {"bytes": 12 * D * N + 4 * N, "flops": 8 * 12 * D * N}
