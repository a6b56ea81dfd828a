"""YIN cumulative mean normalized difference (de Cheveigne & Kawahara 2002; aubio pitchyin, librosa.yin).

d [N, L] is the YIN difference function of N analysis frames for lags 0..L-1 (d[:, 0] = 0). The
output is cmnd[:, 0] = 1 and cmnd[:, tau] = d[:, tau] * tau / sum_{j=1..tau} d[:, j] for tau >= 1
(a tiny constant guards the denominator, as in librosa).
"""
import math

import torch

META = {
    "name": "yin_cmnd",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 6, "L": 40},
        "ragged": {"N": 9, "L": 77},
        "large": {"N": 165504, "L": 338},
    },
    "baseline_notes": "One program per frame, BLOCK = next_power_of_2(L): loads the frame's lags as one vector, "
                      "tl.cumsum of the masked lags >= 1 for the running denominators, one store; 4 warps.",
    "deterministic": True,
}

TINY = 1.1754943508222875e-38


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """d [N, L]: difference functions of voiced frames (dips at multiples of the period) plus noise."""
    s = META["sizes"][size]
    N, L = s["N"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tau = torch.arange(L, dtype=torch.float32)[None, :]
    period = 10.0 + torch.rand(N, 1, generator=g) * (L / 2.0)
    energy = 1.0 + 50.0 * torch.rand(N, 1, generator=g)
    voicing = torch.rand(N, 1, generator=g)
    d = energy * (1.0 - voicing * torch.cos(2.0 * math.pi * tau / period)) * (1.0 - torch.exp(-tau / 3.0))
    d = d + 0.05 * energy * torch.rand(N, L, generator=g) * (tau > 0)
    return (d.clamp_min(0.0).to(dt).to(device),)


def reference(d: torch.Tensor) -> torch.Tensor:
    x = d.double()
    L = x.shape[1]
    tau = torch.arange(L, device=d.device, dtype=torch.float64)[None, :]
    running = torch.cumsum(torch.cat([torch.zeros_like(x[:, :1]), x[:, 1:]], dim=1), dim=1)
    cmnd = x * tau / (running + TINY)
    cmnd[:, 0] = 1.0
    return cmnd.to(d.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] * s["L"], "flops": 3 * s["N"] * s["L"]}
