"""Uncompounded drawdown (underwater) curves of many return series (Riskfolio-Lib MDD_Abs / DaR_Abs / CDaR_Abs).

Riskfolio-Lib's absolute drawdown measures work on the uncompounded NAV of a return series,
NAV_t = 1 + sum_{s<=t} r_s (the series is prefixed with the starting value 1), and the drawdown
    dd_t = max_{s<=t} NAV_s - NAV_t   (the running peak includes the starting value)
from which MDD (max), ADD (mean), DaR and CDaR (tail quantile / mean) are read. The kernel builds
the whole underwater curve dd [T, P] for P series stored time-major (a pandas DataFrame of daily
returns, dates x series, series contiguous), fp32 in and out.
"""
import torch

META = {
    "name": "drawdown_underwater_curve",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 50, "P": 24},
        "ragged": {"T": 77, "P": 150},
        "large": {"T": 2520, "P": 16384},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 128 series; each walks "
                      "its block down the time axis in [32, 128] tiles, a cumsum and a running max along "
                      "axis 0 per tile, carrying the running NAV and peak of the block from tile to tile; "
                      "one load and one store of every element, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Daily simple returns r [T, P] (time-major; vols 0.5-3 %/day, small drifts)."""
    s = META["sizes"][size]
    T, P = s["T"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol = 0.005 + 0.025 * torch.rand(P, generator=g)
    drift = 0.0004 * torch.randn(P, generator=g)
    r = drift[None, :] + vol[None, :] * torch.randn(T, P, generator=g)
    return (r.to(dt).to(device),)


def reference(r: torch.Tensor) -> torch.Tensor:
    c = torch.cumsum(r.double(), dim=0)
    peak = torch.cummax(torch.clamp(c, min=0.0), dim=0).values
    return (peak - c).to(r.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["P"]
    return {"bytes": 8 * n, "flops": 4 * n}
