"""Microphone-array signals of a simulated room (pyroomacoustics Room.simulate).

Every source signal x_s is convolved with the room impulse response from that source to every
microphone and the sources are summed at each microphone (full linear convolution, the
fftconvolve + premix sum of Room.simulate without the noise term):

    y[m, t] = sum_s sum_k h[m, s, k] * x[s, t - k],   t in [0, T + K - 1)

Inputs: x [S, T] fp32 source signals, h [M, S, K] fp32 RIRs (all truncated/padded to K taps).
Returns y [M, T + K - 1] fp32.
"""
import math

import torch

META = {
    "name": "room_simulate_mix",
    "level": 2,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"M": 4, "S": 2, "K": 64, "T": 200},
        "ragged": {"M": 3, "S": 1, "K": 50, "T": 123},
        # 32-capsule spherical array (Eigenmike-style), 2 sources, 4,096-tap RIRs, 5 s at 16 kHz
        "large": {"M": 32, "S": 2, "K": 4096, "T": 80000},
    },
    "baseline_notes": "One program per 64 output samples computes all microphones at once: for every source "
                      "and 16-tap block it loads the Toeplitz tile x[s, t - k] [64, 16] and the RIR tile "
                      "h[:, s, k] as [16, BLOCK_M] and accumulates tl.dot (tf32) into a [64, BLOCK_M] fp32 "
                      "tile, BLOCK_M = max(16, next_power_of_2(M)). 8 warps, no autotune.",
    "deterministic": True,
}
FS = 16000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Speech-like source signals x [S, T] and exponentially decaying RIRs h [M, S, K]."""
    s = META["sizes"][size]
    M, S, K, T = s["M"], s["S"], s["K"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n = torch.arange(T, dtype=torch.float64)
    f0 = 100.0 + 120.0 * torch.rand(S, 1, generator=g, dtype=torch.float64)
    env = 0.5 * (1.0 + torch.sin(2 * math.pi * 3.0 * n / FS + 6.28 * torch.rand(S, 1, generator=g, dtype=torch.float64)))
    voiced = sum(torch.sin(2 * math.pi * h * f0 * n / FS) / h for h in range(1, 6))
    x = env * voiced + 0.05 * torch.randn(S, T, generator=g, dtype=torch.float64)
    x = 0.5 * x / x.abs().amax(dim=1, keepdim=True)
    k = torch.arange(K, dtype=torch.float64)
    rt60 = 0.3 * FS
    tail = torch.randn(M, S, K, generator=g, dtype=torch.float64) * torch.exp(-6.9 * k / rt60) * 0.01
    delay = torch.randint(1, max(2, K // 8), (M, S), generator=g)
    dist = 1.0 + 3.0 * torch.rand(M, S, generator=g, dtype=torch.float64)
    h = tail * (k[None, None, :] >= delay[..., None])
    h.scatter_add_(2, delay[..., None], (1.0 / (4 * math.pi * dist))[..., None])
    return x.to(dt).to(device), h.to(dt).to(device)


def reference(x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    S, T = x.shape
    M, _, K = h.shape
    n_out = T + K - 1
    nfft = 1 << (n_out - 1).bit_length()
    X = torch.fft.rfft(x.double(), n=nfft)                 # [S, F]
    H = torch.fft.rfft(h.double(), n=nfft)                 # [M, S, F]
    y = torch.fft.irfft((H * X[None]).sum(dim=1), n=nfft)  # [M, nfft]
    return y[:, :n_out].to(x.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, S, K, T = s["M"], s["S"], s["K"], s["T"]
    return {"bytes": 4 * (S * T + M * S * K + M * (T + K - 1)), "flops": 2 * M * S * K * (T + K - 1)}
