"""Automatic gain control of seismic traces (Seismic Unix sugain agc=1, wagc=0.5 s).

Every sample of a trace is divided by the rms amplitude of a centred window of 2*half+1
samples (truncated at the trace ends, the mean taken over the samples inside); a window whose
energy is zero (a dead trace) gives 0. traces is [shot, receiver, time] fp32.
"""
import torch

META = {
    "name": "agc_rms_gain",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 2, "R": 3, "T": 96, "H": 10},
        "ragged": {"S": 3, "R": 5, "T": 301, "H": 37},
        "large": {"S": 64, "R": 480, "T": 2001, "H": 125},
    },
    "baseline_notes": "One program per trace, the trace as a [next_power_of_2(T) / 128, 128] tile: each 128-sample "
                      "chunk sums the window energy just before it directly, then a tl.cumsum along the chunk of "
                      "entering (t+half) minus leaving (t-half-1) energy gives every window's energy; divide by "
                      "sqrt of the window mean; 4-8 warps, no autotune.",
    "deterministic": True,
}
FPEAK = 25.0


def _ricker(dt: float, n: int) -> torch.Tensor:
    t = (torch.arange(n, dtype=torch.float64) - n // 2) * dt
    a = (torch.pi * FPEAK * t) ** 2
    return ((1 - 2 * a) * torch.exp(-a)).float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """traces [S, R, T] (sparse reflectivity convolved with a 25 Hz Ricker, spherical-divergence
    decay, a few dead traces) and the half window in samples (NINT(wagc/dt) >> 1)."""
    s = META["sizes"][size]
    S, R, T, H = s["S"], s["R"], s["T"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = 0.002
    refl = torch.randn(S * R, 1, T, generator=g) * (torch.rand(S * R, 1, T, generator=g) < 0.3)
    w = _ricker(dt, 41).view(1, 1, -1)
    x = torch.nn.functional.conv1d(refl, w, padding=20).view(S * R, T)
    x += 0.05 * torch.randn(S * R, T, generator=g)
    x *= 1.0 / (1.0 + torch.arange(T) * dt / 0.5)
    dead = torch.rand(S * R, generator=g) < 0.03
    dead[1] = True
    x[dead] = 0.0
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    return x.view(S, R, T).to(dt_).to(device), H


def reference(traces: torch.Tensor, half: int) -> torch.Tensor:
    x = traces.double()
    T = x.shape[-1]
    e = torch.nn.functional.pad(torch.cumsum(x * x, dim=-1), (1, 0))
    t = torch.arange(T, device=x.device)
    hi = torch.clamp(t + half, max=T - 1)
    lo = torch.clamp(t - half, min=0)
    energy = e[..., hi + 1] - e[..., lo]
    mean = energy / (hi - lo + 1).to(x.dtype)
    safe = torch.where(mean > 0, mean, torch.ones_like(mean))
    return torch.where(mean > 0, x / torch.sqrt(safe), torch.zeros_like(x)).to(traces.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["R"] * s["T"]
    return {"bytes": 8 * n, "flops": 8 * n}
