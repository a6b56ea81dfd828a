"""SeisBench PhaseNet annotate_batch_pre with norm="std": per-window, per-component standardisation.

Before PhaseNet sees a batch of windows [B, 3, 3001] (30.01 s of Z/N/E at 100 Hz), SeisBench removes
each trace's mean and divides by its standard deviation:

    y = x - mean(x, axis=-1);  out = y / (std(y, axis=-1) + 1e-10)

(torch.std, unbiased: sum(y - mean(y))^2 / (n - 1)). A zero-filled (missing) component stays 0.
Production shape: one station-day of 100 Hz three-component data cut into PhaseNet windows with the
default 1500-sample step: 5,758 windows x 3 components x 3,001 samples, fp32 in and out (207 MB each).
"""
import torch

META = {
    "name": "seisbench_phasenet_std_normalize",
    "level": 1,
    "category": "seismology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 8, "C": 3, "N": 3001},
        "ragged": {"B": 5, "C": 3, "N": 1337},
        "large": {"B": 5758, "C": 3, "N": 3001},
    },
    "baseline_notes": "One program per (window, component) row holds the whole row (BLOCK = next power of two "
                      "of N = 4096) in registers: one load, mean, centred sum of squares, one store of the "
                      "standardised row. 4 warps, no autotune.",
    "deterministic": True,
}
EPS = 1e-10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Raw-count windows x [B, C, N]: per-trace offset and gain, noise, an event in some windows,
    and a zero-filled missing component in every 7th window."""
    s = META["sizes"][size]
    b, c, n = s["B"], s["C"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gain = 10.0 ** (1.0 + 3.0 * torch.rand(b, c, 1, generator=g))
    offset = (torch.rand(b, c, 1, generator=g) - 0.5) * 2000.0
    x = gain * torch.randn(b, c, n, generator=g)
    t = torch.arange(n, dtype=torch.float32)
    onset = torch.randint(0, n, (b, 1, 1), generator=g).float()
    has_event = (torch.rand(b, 1, 1, generator=g) < 0.3).float()
    env = torch.where(t > onset, torch.exp(-(t - onset) / 300.0), torch.zeros(()))
    x = x + has_event * 8.0 * gain * env * torch.sin(2.0 * torch.pi * 5.0 * t / 100.0) + offset
    x[::7, -1, :] = 0.0
    return (x.to(device=device, dtype=dt).contiguous(),)


def reference(x: torch.Tensor) -> torch.Tensor:
    y = x.double()
    y = y - y.mean(dim=-1, keepdim=True)
    return (y / (y.std(dim=-1, keepdim=True) + EPS)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    elems = s["B"] * s["C"] * s["N"]
    return {"bytes": 8 * elems, "flops": 5 * elems}
