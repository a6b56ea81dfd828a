"""Incoherent (brute-force) dedispersion of an 8-bit filterbank over many DM trials (dedisp / heimdall).

data [F, T] uint8 is a channel-major filterbank gulp (channel 0 = top of the band); delays [D, F]
int32 holds, per DM trial and channel, the dispersion delay in samples,
round(DM * 4.148808e3 * (f^-2 - f_top^-2) / tsamp). The dedispersed time series is
    out[d, t] = sum_f data[f, t + delays[d, f]]
with samples past the end of the gulp counted as zero, fp32 [D, T]. Sums of uint8 are exact in fp32.
"""
import math

import torch

META = {
    "name": "incoherent_dedispersion",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-6}},
    "sizes": {
        "small": {"D": 6, "F": 16, "T": 128, "max_delay": 30},
        "ragged": {"D": 7, "F": 23, "T": 77, "max_delay": 19},
        "large": {"D": 1024, "F": 1024, "T": 65536, "max_delay": 18267},
    },
    "baseline_notes": "Program per (1024-sample block, DM trial): loops over the channels, loads the trial's "
                      "delay for the channel and a 1024-wide contiguous uint8 run of the channel at that "
                      "offset (masked at the gulp end), accumulates in fp32; 4 warps, no autotune.",
    "deterministic": True,
}

F_TOP_MHZ, F_BOT_MHZ = 1518.0, 1182.0   # 1024 x 0.328 MHz channels, 64 us sampling (BPSR-like)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [F, T] uint8 (noise around 128 plus a dispersed pulse), delays [D, F] int32 (DM 0..max)."""
    s = META["sizes"][size]
    D, F, T = s["D"], s["F"], s["T"]
    g = torch.Generator().manual_seed(seed)
    freqs = torch.linspace(F_TOP_MHZ, F_BOT_MHZ, F, dtype=torch.float64)
    curve = (freqs ** -2 - F_TOP_MHZ ** -2) / (F_BOT_MHZ ** -2 - F_TOP_MHZ ** -2)
    dm_frac = torch.linspace(0.0, 1.0, D, dtype=torch.float64)
    delays = torch.round(dm_frac[:, None] * s["max_delay"] * curve[None, :]).to(torch.int32)
    data = torch.randn(F, T, generator=g) * 12.0 + 128.0
    pulse = delays[D // 2].long() + T // 4
    keep = pulse < T
    data[torch.arange(F)[keep], pulse[keep]] += 60.0
    data = data.round().clamp(0, 255).to(torch.uint8)
    return data.to(device), delays.to(device)


def reference(data: torch.Tensor, delays: torch.Tensor) -> torch.Tensor:
    F, T = data.shape
    D = delays.shape[0]
    pad = int(delays.max().item())
    padded = torch.cat([data.float(), data.new_zeros(F, pad + 1).float()], dim=1)
    out = torch.zeros(D, T, device=data.device, dtype=torch.float32)
    for f in range(F):
        windows = padded[f].as_strided((pad + 1, T), (1, 1))
        out += windows.index_select(0, delays[:, f].long())
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    D, F, T = s["D"], s["F"], s["T"]
    return {"bytes": F * T + 4 * D * F + 4 * D * T, "flops": D * F * T}
