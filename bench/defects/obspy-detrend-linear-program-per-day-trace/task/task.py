"""ObsPy Trace.detrend("linear") on a day-long three-component record.

ObsPy's "linear" detrend (scipy.signal.detrend, type="linear") fits a least-squares straight line
to every trace and subtracts it. With the sample index centred on the middle of the trace,
tc = t - (n - 1) / 2, the fit separates: intercept = mean(x), slope = sum(tc * x) / sum(tc^2),
sum(tc^2) = n (n^2 - 1) / 12, and out = x - intercept - slope * tc.

The production unit is one station-day of miniSEED as NoisePy / EQcorrscan read it before
filtering: 3 components (Z, N, E) x 86,400 s at 100 Hz = 8,640,000 samples each, raw counts
with a DC offset, an instrument drift, microseism and noise. Input x fp32 [traces, npts]
(contiguous); output fp32 [traces, npts].
"""
import math

import torch

META = {
    "name": "obspy_detrend_linear",
    "level": 1,
    "category": "seismology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"traces": 3, "npts": 10000},
        "ragged": {"traces": 2, "npts": 7777},
        "large": {"traces": 3, "npts": 8640000},
    },
    "baseline_notes": "Two launches over a (trace, part) grid that splits each trace into parts of 8 blocks "
                      "of 4096 samples: the first writes each part's sum(x) and sum(tc * x), the second "
                      "reduces a trace's partials to the intercept and slope and subtracts the line from its "
                      "part. fp32 accumulation, 8 warps, no autotune.",
    "deterministic": True,
}
RATE_HZ = 100.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Raw counts x [traces, npts]: offset + linear drift + 6 s microseism + broadband noise."""
    s = META["sizes"][size]
    n_tr, n = s["traces"], s["npts"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(n, dtype=torch.float64) / RATE_HZ
    offset = (torch.rand(n_tr, 1, generator=g, dtype=torch.float64) - 0.5) * 4000.0
    drift = (torch.rand(n_tr, 1, generator=g, dtype=torch.float64) - 0.5) * 1500.0
    phase = torch.rand(n_tr, 1, generator=g, dtype=torch.float64) * 2.0 * math.pi
    micro = 250.0 * torch.sin(2.0 * math.pi * t[None, :] / 6.0 + phase)
    noise = 120.0 * torch.randn(n_tr, n, generator=g, dtype=torch.float64)
    x = offset + drift * (t[None, :] / t[-1].clamp(min=1.0)) + micro + noise
    return (x.to(device=device, dtype=dt).contiguous(),)


def reference(x: torch.Tensor) -> torch.Tensor:
    d = x.double()
    n = d.shape[-1]
    tc = torch.arange(n, dtype=torch.float64, device=d.device) - (n - 1) / 2.0
    intercept = d.mean(dim=-1, keepdim=True)
    slope = (d * tc).sum(dim=-1, keepdim=True) / (n * (n * n - 1) / 12.0)
    return (d - intercept - slope * tc).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    elems = s["traces"] * s["npts"]
    return {"bytes": 12 * elems, "flops": 6 * elems}
