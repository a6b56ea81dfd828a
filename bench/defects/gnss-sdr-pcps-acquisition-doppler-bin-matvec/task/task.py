"""GNSS parallel code phase search (GNSS-SDR pcps_acquisition): PRN code correlation over a Doppler grid.

For every searched PRN p, Doppler bin d and code phase tau the acquisition grid holds
    |sum_m x[m] * wipe[d, m] * code[p, (m - tau) mod N]|^2 / N^2,
the circular cross-correlation of the Doppler-wiped baseband with the sampled local code replica
(GNSS-SDR computes it as IFFT(FFT(x * wipe_d) * conj(FFT(code_p)))). Complex samples are fp32
(re, im) pairs; the wipe-off replicas exp(-j 2 pi f_d m / fs) are precomputed per bin.
"""
import math

import torch

META = {
    "name": "pcps_acquisition_grid",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-2}},
    "sizes": {
        "small": {"P": 2, "D": 3, "N": 96},
        "ragged": {"P": 3, "D": 5, "N": 150},
        "large": {"P": 32, "D": 41, "N": 4000},
    },
    "baseline_notes": "Grid (code-phase tiles of 64, PRNs); each program builds the wiped signal of all Doppler "
                      "bins (BLOCK_D = max(16, next_power_of_2(D)) rows, re and im) for a 64-sample chunk, "
                      "gathers the 64 x 64 circulant code tile once and accumulates two tl.dot products (tf32) "
                      "into fp32; 4 warps.",
    "deterministic": True,
}

FS_HZ = 4.0e6
CHIP_RATE_HZ = 1.023e6
DOPPLER_STEP_HZ = 250.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """signal [N, 2] (2-bit quantised complex baseband), wipeoffs [D, N, 2], codes [P, N] (+-1 replicas)."""
    s = META["sizes"][size]
    P, D, N = s["P"], s["D"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n = torch.arange(N, dtype=torch.float64)
    chips = torch.randint(0, 2, (P, 1023), generator=g).double() * 2 - 1
    chip_idx = (n * CHIP_RATE_HZ / FS_HZ).long() % 1023
    codes = chips[:, chip_idx]
    dopplers = (torch.arange(D, dtype=torch.float64) - (D - 1) / 2) * DOPPLER_STEP_HZ
    phase = -2 * math.pi * dopplers[:, None] * n[None, :] / FS_HZ
    wipeoffs = torch.stack([torch.cos(phase), torch.sin(phase)], dim=-1)
    sig = torch.randn(N, 2, generator=g, dtype=torch.float64) * 1.2
    for p in range(min(P, 3)):
        delay = int(torch.randint(0, N, (1,), generator=g))
        f = dopplers[int(torch.randint(0, D, (1,), generator=g))] + 40.0
        ph = 2 * math.pi * f * n / FS_HZ + 0.7 * p
        rolled = torch.roll(codes[p], delay)
        sig[:, 0] += 0.5 * rolled * torch.cos(ph)
        sig[:, 1] += 0.5 * rolled * torch.sin(ph)
    levels = torch.tensor([-3.0, -1.0, 1.0, 3.0], dtype=torch.float64)
    sig = levels[torch.clamp(torch.floor(sig + 2.0), 0, 3).long()]
    return (sig.to(dt).to(device), wipeoffs.to(dt).to(device), codes.to(dt).to(device))


def reference(signal: torch.Tensor, wipeoffs: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    N = signal.shape[0]
    x = torch.complex(signal[:, 0].double(), signal[:, 1].double())
    w = torch.complex(wipeoffs[..., 0].double(), wipeoffs[..., 1].double())
    spec = torch.fft.fft(x[None, :] * w, dim=-1)                       # [D, N]
    code_spec = torch.fft.fft(codes.double(), dim=-1)                  # [P, N]
    corr = torch.fft.ifft(spec[None, :, :] * code_spec.conj()[:, None, :], dim=-1)
    return (corr.abs() ** 2 / float(N) ** 2).to(signal.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, D, N = s["P"], s["D"], s["N"]
    return {"bytes": 4 * (2 * N + 2 * D * N + P * N + P * D * N), "flops": 4 * P * D * N * N}
