"""Population spike-time histogram (PSTH / population rate) of a NEST spike_recorder's events.

NEST's spike_recorder (and Brian2's SpikeMonitor) store events in the order they were emitted, so the spike
times, kept here as integer simulation steps (resolution 0.1 ms), are non-decreasing. The analysis of the
Potjans & Diesmann (2014) microcircuit example bins them into fixed bins of `steps_per_bin` steps (1 ms)
over the simulated time: count[k] = #{spikes with step // steps_per_bin == k}, k < n_bins (a trailing
partial bin is dropped), and the population rate in Hz, rate[k] = count[k] / (n_neurons * bin seconds),
the histogram panel of nest.raster_plot / Elephant's time_histogram(output='rate'). Returns
(count [n_bins] int32, rate [n_bins] fp32).
"""
import torch

META = {
    "name": "spike_psth",
    "level": 2,
    "category": "histogram",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"neurons": 400, "steps": 5000, "spikes": 3000},
        "ragged": {"neurons": 777, "steps": 4321, "spikes": 4567},
        "large": {"neurons": 77169, "steps": 600000, "spikes": 16668504},
    },
    "baseline_notes": "One program per 1024 consecutive spikes (4 warps): bin = step // STEPS_PER_BIN "
                      "(constexpr); since the steps are sorted, equal bins form runs, whose ends are found by "
                      "comparing the neighbouring steps with the bin's bounds; each run inside the block is "
                      "counted with two atomics at its ends (+(last + 1), -first), so a block issues a handful "
                      "of atomics instead of 1024. A second small kernel scales counts to Hz. No autotune.",
    "deterministic": True,
}
STEP_MS = 0.1
STEPS_PER_BIN = 10   # 1 ms bins


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """steps [~spikes] int32, sorted (spike times in steps; the count is Poisson around `spikes`),
    steps_per_bin, n_bins, n_neurons."""
    s = META["sizes"][size]
    T, n = s["steps"], s["spikes"]
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float64) * STEP_MS
    # population rate profile: baseline, a low-gamma rhythm (as in the microcircuit's L2/3 and L4) and
    # sparse synchronous events
    density = 1.0 + 0.6 * torch.sin(2 * torch.pi * t / 25.0) ** 2
    density += 4.0 * (torch.rand(T, generator=g, dtype=torch.float64) < 0.002).double()
    lam = density * (n / density.sum())                       # expected spikes per step
    per_step = torch.poisson(lam, generator=g).long()
    steps = torch.repeat_interleave(torch.arange(T), per_step)  # emitted in time order: sorted
    dt = getattr(torch, dtype or META["dtypes"][0])
    return steps.to(device=device, dtype=dt), STEPS_PER_BIN, T // STEPS_PER_BIN, s["neurons"]


def reference(steps: torch.Tensor, steps_per_bin: int, n_bins: int, n_neurons: int) -> tuple:
    b = steps.long() // steps_per_bin
    count = torch.bincount(b[b < n_bins], minlength=n_bins)[:n_bins]
    rate = count.double() / (n_neurons * steps_per_bin * STEP_MS * 1e-3)
    return count.to(torch.int32), rate.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["spikes"] + 8 * (s["steps"] // STEPS_PER_BIN), "flops": 2 * s["spikes"]}
