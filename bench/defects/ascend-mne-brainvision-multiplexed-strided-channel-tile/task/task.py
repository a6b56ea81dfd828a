"""Demultiplex and calibrate a BrainVision binary recording (MNE-Python mne.io.read_raw_brainvision, preload).

A BrainVision .eeg file with DataFormat=BINARY, DataOrientation=MULTIPLEXED, BinaryFormat=INT_16 stores the
samples time-major: sample t of channel c is the int16 at position t * n_channels + c. MNE's reader
(_read_segments_file) reshapes each block to channel-major [n_channels, n_times] and multiplies every
channel by its calibration, cals[c] = Resolution[c] (the .vhdr "Ch<n>=<name>,<ref>,<resolution>,<unit>"
line, e.g. 0.1 uV) converted to volts:
    data[c, t] = float(raw_mux[t, c]) * cals[c]
Returns data [n_channels, n_times] fp32 (volts), the layout of Raw._data.
"""
import torch

META = {
    "name": "brainvision_demux_calibrate",
    "level": 1,
    "category": "transpose",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-12, "rtol": 1e-6}},  # volts
    "sizes": {
        "small": {"C": 8, "n_times": 300},
        "ragged": {"C": 5, "n_times": 333},
        # 64-channel actiCHamp cap at 1 kHz, 30 minutes
        "large": {"C": 64, "n_times": 1_800_000},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 128 samples: each block is one "
                      "contiguous [128, C] int16 load (the multiplexed rows), a cast and per-channel scale, "
                      "tl.trans to [C, 128] on chip and a store of C contiguous 512-byte row segments; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """raw_mux [n_times, C] int16 (ADC counts, multiplexed), cals [C] (volts per count)."""
    s = META["sizes"][size]
    C, n = s["C"], s["n_times"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randn(n, C, generator=g) * 300.0 + torch.randn(1, C, generator=g) * 2000.0
    raw_mux = counts.clamp(-32768, 32767).round().to(torch.int16)
    cals = torch.full((C,), 0.1e-6)
    cals[torch.rand(C, generator=g) < 0.1] = 0.5e-6        # a few auxiliary channels with a coarser resolution
    return raw_mux.to(device), cals.to(dt).to(device)


def reference(raw_mux: torch.Tensor, cals: torch.Tensor) -> torch.Tensor:
    return (raw_mux.double().t() * cals.double()[:, None]).to(cals.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, n = s["C"], s["n_times"]
    return {"bytes": 6 * C * n + 4 * C, "flops": C * n}
