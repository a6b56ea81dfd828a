"""Precise satellite clock interpolation (RTKLIB preceph.c pephclk(), called from peph2pos()).

A RINEX clock file gives each satellite's clock bias at records t_k (every 30 s; merged products
have missing records, and a bias of 0.0 marks a satellite outage). For every observation
(transmission time t, satellite sat) RTKLIB finds by binary search the first record i with
t_i >= t (at most nc - 1), takes index = max(i - 1, 0) and with d0 = t - t_index, d1 = t - t_{index+1}:

    d0 <= 0 : dts = c_index            std = std_index * CLIGHT - EXTERR_CLK * d0
    d1 >= 0 : dts = c_{index+1}        std = std_{index+1} * CLIGHT + EXTERR_CLK * d1
    else    : dts = (c1 d0 - c0 d1) / (d0 - d1)   (both non-zero), std from the nearer record
                                                   plus EXTERR_CLK * |d| of that record

The observation is rejected (dts = 0, var = 0) when the bias used is 0.0 (outage) or t lies more
than MAXDTE = 900 s outside the file. Returns (dts [Q] fp64 seconds, var = std^2 [Q] fp64 m^2).
"""
import torch

CLIGHT = 299792458.0
EXTERR_CLK = 1e-3   # extrapolation error of the clock (m/s)
MAXDTE = 900.0      # max time difference to the ends of the clock file (s)
CLK_INTERVAL = 30.0

META = {
    "name": "precise_clock_interp",
    "level": 2,
    "category": "gnss",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-12, "rtol": 1e-9}},
    "sizes": {
        "small": {"epochs": 25, "sats": 8, "records": 41, "nsat": 16},
        "ragged": {"epochs": 37, "sats": 9, "records": 59, "nsat": 21},
        "large": {"epochs": 86400, "sats": 48, "records": 2881, "nsat": 128},
    },
    "baseline_notes": "One program per 128 observations (4 warps): a branch-free binary search over the "
                      "record times (ceil(log2(nc)) steps of one gathered load each, the record table stays "
                      "in L1/L2), then two gathered clock biases and stds of the bracketing records and the "
                      "RTKLIB interpolation / extrapolation / outage rules; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """obs_time [Q] fp64 (s), obs_sat [Q] int32, clk_time [NC] fp64 (s, increasing, with gaps),
    clk_bias [NC, NSAT] fp64 (s, 0.0 = outage), clk_std [NC, NSAT] fp32 (s)."""
    s = META["sizes"][size]
    n_ep, n_vis, nrec, nsat = s["epochs"], s["sats"], s["records"], s["nsat"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # clock records every 30 s; a few interior records missing from the merged product
    grid = torch.arange(nrec + nrec // 50 + 2, dtype=torch.float64) * CLK_INTERVAL
    keep = torch.ones(grid.numel(), dtype=torch.bool)
    drop = 1 + torch.randperm(grid.numel() - 2, generator=g)[: grid.numel() - nrec]
    keep[drop] = False
    clk_time = grid[keep][:nrec].clone()
    span = float(clk_time[-1] - clk_time[0])
    # satellite clocks: offset + drift + random walk, outages marked by 0.0
    a0 = (torch.rand(nsat, generator=g, dtype=torch.float64) - 0.5) * 1e-3
    a1 = torch.randn(nsat, generator=g, dtype=torch.float64) * 1e-11
    walk = torch.cumsum(torch.randn(nrec, nsat, generator=g, dtype=torch.float64) * 2e-11, dim=0)
    clk_bias = a0[None, :] + a1[None, :] * clk_time[:, None] + walk
    clk_bias[torch.rand(nrec, nsat, generator=g) < 0.005] = 0.0
    clk_std = (5e-12 + 2.5e-11 * torch.rand(nrec, nsat, generator=g)).to(torch.float32)
    # observations: receiver epochs across the file, each with its visible satellites (sorted)
    t_rx = torch.arange(n_ep, dtype=torch.float64) * (span / n_ep)
    sat = torch.rand(n_ep, nsat, generator=g).argsort(dim=1)[:, :n_vis].sort(dim=1).values
    tau = 0.065 + 0.02 * torch.rand(n_ep, n_vis, generator=g, dtype=torch.float64)  # signal travel time
    obs_time = (t_rx[:, None] - tau).reshape(-1)
    obs_sat = sat.reshape(-1).to(torch.int32)
    return (obs_time.to(dt).to(device), obs_sat.to(device), clk_time.to(dt).to(device),
            clk_bias.to(dt).to(device), clk_std.to(device))


def reference(obs_time, obs_sat, clk_time, clk_bias, clk_std) -> tuple:
    t = obs_time.double()
    sat = obs_sat.long()
    times = clk_time.double()
    nc = times.numel()
    i = torch.searchsorted(times, t, side="left").clamp(max=nc - 1)
    idx = (i - 1).clamp(min=0)
    d0 = t - times[idx]
    d1 = t - times[idx + 1]
    c0 = clk_bias.double()[idx, sat]
    c1 = clk_bias.double()[idx + 1, sat]
    s0 = clk_std.double()[idx, sat] * CLIGHT
    s1 = clk_std.double()[idx + 1, sat] * CLIGHT
    before, after = d0 <= 0.0, d1 >= 0.0
    dts = torch.where(before, c0, torch.where(after, c1, (c1 * d0 - c0 * d1) / (d0 - d1)))
    near0 = d0 < -d1
    std = torch.where(before, s0 - EXTERR_CLK * d0,
                      torch.where(after, s1 + EXTERR_CLK * d1,
                                  torch.where(near0, s0 + EXTERR_CLK * d0.abs(), s1 + EXTERR_CLK * d1.abs())))
    used = torch.where(before, c0 != 0.0, torch.where(after, c1 != 0.0, (c0 != 0.0) & (c1 != 0.0)))
    in_file = (t - times[0] >= -MAXDTE) & (t - times[-1] <= MAXDTE)
    valid = used & in_file
    zero = torch.zeros_like(dts)
    return (torch.where(valid, dts, zero).to(obs_time.dtype),
            torch.where(valid, std * std, zero).to(obs_time.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    q = s["epochs"] * s["sats"]
    return {"bytes": q * (8 + 4 + 8 + 8) + s["records"] * (8 + 12 * s["nsat"]),
            "flops": q * 30}
