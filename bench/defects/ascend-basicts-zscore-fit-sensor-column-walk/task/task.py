"""Per-sensor z-score statistics of a traffic-speed training split (BasicTS ZScoreScaler, norm_each_channel=True).

The training split of a loop-detector speed matrix x [T, N] (time steps x sensors, row-major, the
layout of the PEMS-BAY / LargeST .h5 files) is reduced over time, separately for every sensor:
    mean[n] = sum_t x[t, n] * v[t, n] / c[n]
    std[n]  = sqrt(sum_t (x[t, n] - mean[n])^2 * v[t, n] / c[n])      (population std, as np.std)
where v[t, n] = (x[t, n] != 0) drops the zero readings that failed detectors write (the null value
of the masked losses) and c[n] = sum_t v[t, n]. A sensor without any valid reading gets mean 0,
and a zero std is replaced by 1 (BasicTS: std[std == 0] = 1.0), so the later transform
(x - mean) / std never divides by zero. Returns (mean [N] fp32, std [N] fp32).
"""
import torch

META = {
    "name": "sensor_zscore_fit",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 300, "N": 37},
        "ragged": {"T": 517, "N": 45},
        "large": {"T": 21024, "N": 2352},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 adjacent sensors; each "
                      "walks the time axis in [64 steps, 64 sensors] tiles (256-byte contiguous rows), "
                      "first pass masked sum and count, second pass centred sum of squares, both reduced "
                      "along the time axis (axis 0) at the end; one store of mean and std per block.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Speeds x [T, N] in mph with a daily profile, per-sensor levels, ~4% zero (missing) readings,
    a few multi-hour detector outages and one sensor that never reported."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(T, dtype=torch.float32)[:, None]
    level = 55.0 + 12.0 * torch.rand(1, N, generator=g)
    dip = 10.0 + 25.0 * torch.rand(1, N, generator=g)
    day = 96.0  # 15-minute steps per day
    rush = torch.exp(-((t % day) - 34.0).pow(2) / 40.0) + torch.exp(-((t % day) - 70.0).pow(2) / 60.0)
    x = level - dip * rush + 2.5 * torch.randn(T, N, generator=g)
    x = x.clamp(min=3.0)
    x[torch.rand(T, N, generator=g) < 0.04] = 0.0
    for _ in range(max(1, N // 10)):
        n = int(torch.randint(0, N, (1,), generator=g))
        t0 = int(torch.randint(0, T, (1,), generator=g))
        x[t0:t0 + max(1, T // 20), n] = 0.0
    x[:, N // 3] = 0.0
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> tuple:
    xd = x.double()
    valid = xd != 0
    cnt = valid.sum(0).double()
    mean = torch.where(valid, xd, 0.0).sum(0) / cnt.clamp(min=1.0)
    var = torch.where(valid, xd - mean, 0.0).pow(2).sum(0) / cnt.clamp(min=1.0)
    std = var.sqrt()
    std = torch.where(std == 0, torch.ones_like(std), std)
    return mean.to(x.dtype), std.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    return {"bytes": 2 * 4 * T * N + 8 * N, "flops": 7 * T * N}
