"""AR(1) calcium reconstruction of deconvolved traces (OASIS as used by CaImAn and Suite2p).

OASIS (Friedrich, Zhou & Paninski 2017) models each neuron's denoised calcium trace as an AR(1)
process driven by the inferred spike train:
    c[n, t] = g_n * c[n, t-1] + s[n, t],   c[n, -1] = 0,   g_n = exp(-1 / (tau_n * fs))
i.e. c = scipy.signal.lfilter([1], [1, -g], s) per neuron (CaImAn's estimates.C from estimates.S,
Suite2p's spks -> calcium model). Traces are stored neuron-major, time contiguous, as Suite2p's
F.npy / spks.npy and CaImAn's C / S are. Inputs s fp32 [N, T] (non-negative, sparse), g fp32 [N];
returns c fp32 [N, T].
"""
import math

import torch

META = {
    "name": "ar1_calcium_from_spikes",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 4, "T": 2300},
        "ragged": {"N": 3, "T": 1500},
        "large": {"N": 2500, "T": 36000},
    },
    "baseline_notes": "One program per neuron loops over the time axis in blocks of 1024 frames: a "
                      "tl.associative_scan over (decay, spike) pairs with the affine combine "
                      "(a1, b1) o (a2, b2) = (a1 a2, b1 a2 + b2) gives the block's local trace and g^(k+1), "
                      "the previous block's last value is added times g^(k+1), and the block's last value is "
                      "carried on. 4 warps, no autotune.",
    "deterministic": True,
}
FS = 30.0  # imaging rate, Hz


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """s [N, T]: sparse non-negative spike amplitudes (OASIS output); g [N]: per-neuron AR(1) decay."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tau = 0.6 + 0.9 * torch.rand(N, generator=g)          # GCaMP6f..6s decay times, seconds
    decay = torch.exp(-1.0 / (tau * FS))
    rate = 0.01 + 0.04 * torch.rand(N, 1, generator=g)    # events per frame
    events = torch.rand(N, T, generator=g) < rate
    amp = torch.exp(0.4 * torch.randn(N, T, generator=g)) * (20.0 + 80.0 * torch.rand(N, 1, generator=g))
    spikes = torch.where(events, amp, torch.zeros(()))
    return spikes.to(device=device, dtype=dt), decay.to(device=device, dtype=dt)


def reference(s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    x = s.double()
    gd = g.double()
    c = torch.empty_like(x)
    prev = torch.zeros(x.shape[0], dtype=torch.float64, device=x.device)
    for t in range(x.shape[1]):
        prev = gd * prev + x[:, t]
        c[:, t] = prev
    return c.to(s.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] * s["T"] + 4 * s["N"], "flops": 2 * s["N"] * s["T"]}
