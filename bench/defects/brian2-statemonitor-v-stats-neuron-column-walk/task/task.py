"""Per-neuron membrane-potential statistics from a Brian2 StateMonitor recording.

`StateMonitor(G, 'v', record=True)` appends one row per time step to its device buffer `_recorded_v`, so the
buffer is time-major, rec[t, i] (T steps x N neurons, volts); `mon.v` is its transpose. The analysis that
follows a run (mean and standard deviation of each neuron's trace, `mon.v.mean(axis=1)` /
`mon.v.std(axis=1)`, numpy's ddof = 0) reduces every column of the buffer over time. Returns
(mean [N], std [N]) fp32, in volts.
"""
import torch

META = {
    "name": "statemonitor_v_stats",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 300, "N": 40},
        "ragged": {"T": 517, "N": 77},
        "large": {"T": 10000, "N": 10000},
    },
    "baseline_notes": "One program per 32 neurons (4 warps) walks the recording in [64 steps x 32 neurons] "
                      "tiles, each row of the tile a contiguous 128-byte segment, keeping the shifted sums "
                      "sum(v - v0) and sum((v - v0)^2) per neuron in register tiles (v0 = the neuron's first "
                      "sample, so the variance does not cancel); one reduction over the step axis at the end. "
                      "No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rec [T, N] (volts): each neuron fluctuates around its own mean, with a shared population rhythm."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mu = -0.070 + 0.018 * torch.rand(N, generator=g)          # -70 .. -52 mV
    sigma = 0.001 + 0.005 * torch.rand(N, generator=g)        # 1 .. 6 mV
    t = torch.arange(T, dtype=torch.float32)[:, None] * 1e-4  # dt = 0.1 ms
    rhythm = 0.002 * torch.sin(2 * torch.pi * 40.0 * t)       # 40 Hz population oscillation
    rec = mu + rhythm + sigma * torch.randn(T, N, generator=g)
    return (rec.to(device=device, dtype=dt),)


def reference(rec: torch.Tensor) -> tuple:
    v = rec.double()
    return v.mean(dim=0).to(rec.dtype), v.std(dim=0, unbiased=False).to(rec.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["T"] * s["N"] + 8 * s["N"], "flops": 4 * s["T"] * s["N"]}
