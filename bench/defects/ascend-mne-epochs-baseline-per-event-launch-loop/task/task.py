"""Epoching with baseline correction (MNE-Python mne.Epochs(raw, events, tmin, tmax, baseline=(None, 0), preload=True)).

For every event e with onset sample s_e (events[:, 0] of mne.find_events, relative to the first sample of
the preloaded Raw), the epoch is the window of all channels from tmin to tmax:
    epoch[e, c, j] = raw[c, s_e - pre + j]          j = 0 .. n_samp - 1, pre = round(-tmin * sfreq)
and baseline=(None, 0) subtracts, per epoch and channel, the mean over the samples from tmin up to and
including t = 0 (the first pre + 1 samples of the epoch), the "mean" mode of mne.baseline.rescale:
    out[e, c, j] = epoch[e, c, j] - mean(epoch[e, c, 0 : pre + 1])
Returns out [n_events, n_channels, n_samp] in the dtype of raw.
"""
import torch

META = {
    "name": "epochs_baseline",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 1e-5}},  # volts: 1 nV
    "sizes": {
        # sfreq 100 Hz, tmin -0.2 s, tmax 0.8 s
        "small": {"C": 4, "n_times": 3000, "n_events": 5, "pre": 20, "n_samp": 101},
        "ragged": {"C": 3, "n_times": 2500, "n_events": 7, "pre": 13, "n_samp": 67},
        # 64-channel EEG at 1 kHz, 20 minutes, 1,200 events, tmin -0.2 s, tmax 0.8 s
        "large": {"C": 64, "n_times": 1_200_000, "n_events": 1200, "pre": 200, "n_samp": 1001},
    },
    "baseline_notes": "One launch: 40 programs (the 910B4's vector cores) loop over the events; per event "
                      "the onset is one scalar load and the program walks the channels in blocks of 4 rows x "
                      "the whole epoch (next_power_of_2(n_samp) lanes): a masked load of the baseline window, "
                      "its row sum, a masked load of the window, subtract, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """raw [C, n_times] (volts), onsets [n_events] int32 sample indices (sorted), pre (int), n_samp (int)."""
    s = META["sizes"][size]
    C, n, E, pre, L = s["C"], s["n_times"], s["n_events"], s["pre"], s["n_samp"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(n, dtype=torch.float32)
    drift = torch.randn(C, 1, generator=g) * 40e-6                      # per-channel DC offset
    alpha = torch.sin(t * (2 * torch.pi * 10.0 / 1000.0))[None, :] * (torch.rand(C, 1, generator=g) * 15e-6)
    raw = torch.randn(C, n, generator=g) * 8e-6
    raw += drift
    raw += alpha
    spacing = (n - L - pre) // E
    jitter = torch.randint(0, max(1, spacing // 4), (E,), generator=g)
    onsets = pre + torch.arange(E) * spacing + jitter
    return raw.to(dt).to(device), onsets.to(torch.int32).to(device), pre, L


def reference(raw: torch.Tensor, onsets: torch.Tensor, pre: int, n_samp: int) -> torch.Tensor:
    idx = onsets.long()[:, None] - pre + torch.arange(n_samp, device=raw.device)[None, :]
    ep = raw.double()[:, idx].permute(1, 0, 2)
    base = ep[:, :, : pre + 1].mean(dim=-1, keepdim=True)
    return (ep - base).to(raw.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E, C, L, pre = s["n_events"], s["C"], s["n_samp"], s["pre"]
    return {"bytes": 4 * E * C * (2 * L + pre + 1) + 4 * E, "flops": E * C * (L + pre + 1)}
