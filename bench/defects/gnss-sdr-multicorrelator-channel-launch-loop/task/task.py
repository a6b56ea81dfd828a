"""GNSS tracking multicorrelator (GNSS-SDR cuda_multicorrelator): carrier wipe-off and very-early / early /
prompt / late / very-late correlators for a bank of tracking channels.

Channel c tracks PRN prn[c] on antenna ant[c]. For sample n of the integration interval,
    carrier phase  phi    = rem_carr[c] + n * carr_step[c]                       (rad, fp32 NCO)
    code phase     cp_k   = n * code_step[c] + shift[k] - rem_code[c]            (Q16 fixed point, code samples)
    idx_k                 = floor(cp_k / 2^16) wrapped once into [0, L)
    corr[c, k]            = sum_n x[ant[c], n] * exp(-j phi) * code[prn[c], idx_k]
Complex samples and outputs are fp32 (re, im) pairs; the code NCO is an int32 phase accumulator with
2^-16-sample resolution, as in a hardware correlator.
"""
import math

import torch

META = {
    "name": "veml_multicorrelator",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.05, "rtol": 1e-4}},
    "sizes": {
        "small": {"A": 2, "C": 3, "N": 1500, "L": 300},
        "ragged": {"A": 3, "C": 5, "N": 2333, "L": 460},
        "large": {"A": 16, "C": 384, "N": 81840, "L": 8184},
    },
    "shifts_samples": [-1.2, -0.3, 0.0, 0.3, 1.2],
    "baseline_notes": "One launch, grid (correlator tap, channel): each program walks the integration interval in "
                      "1,024-sample tiles (fp32 carrier NCO with sin/cos, Q16 code NCO, one code gather per sample) "
                      "and stores its complex sum; 8 warps.",
    "deterministic": True,
}

FS_HZ = 20.46e6
SUBCHIP_RATE_HZ = 2.046e6     # Galileo E1B with its BOC(1,1) subcarrier: two code samples per chip
Q16 = 65536


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """samples [A, N, 2], codes [P, L] (+-1), ant [C] i32, prn [C] i32, carrier [C, 2] f32 (rem phase, step),
    code_nco [C, 2] i32 (rem phase, step; Q16), shifts [K] i32 (Q16)."""
    s = META["sizes"][size]
    A, C, N, L = s["A"], s["C"], s["N"], s["L"]
    P = min(50, C)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    codes = torch.randint(0, 2, (P, L), generator=g).double() * 2 - 1
    ant = torch.arange(C) % A
    prn = torch.randperm(C, generator=g) % P
    doppler = (torch.rand(C, generator=g, dtype=torch.float64) - 0.5) * 8000.0
    carrier = torch.stack([torch.rand(C, generator=g, dtype=torch.float64) * 2 * math.pi,
                           2 * math.pi * doppler / FS_HZ], dim=1).float()
    code_step = torch.round(SUBCHIP_RATE_HZ * (1 + doppler / 1575.42e6) / FS_HZ * Q16)
    rem_code = torch.randint(0, Q16, (C,), generator=g).double()
    code_nco = torch.stack([rem_code, code_step], dim=1).to(torch.int32)
    shifts = torch.round(torch.tensor(META["shifts_samples"], dtype=torch.float64) * Q16).to(torch.int32)
    x = torch.randn(A, N, 2, generator=g, dtype=torch.float64) * 1.5
    n = torch.arange(N, dtype=torch.float64)
    for c in range(0, C, 3):
        idx = torch.floor((n * code_step[c] - rem_code[c]) / Q16 + 0.1).long() % L
        ph = carrier[c, 0].double() + n * carrier[c, 1].double() + 0.2
        x[ant[c], :, 0] += 0.4 * codes[prn[c], idx] * torch.cos(ph)
        x[ant[c], :, 1] += 0.4 * codes[prn[c], idx] * torch.sin(ph)
    levels = torch.tensor([-3.0, -1.0, 1.0, 3.0], dtype=torch.float64)
    x = levels[torch.clamp(torch.floor(x + 2.0), 0, 3).long()]
    return (x.to(dt).to(device), codes.to(dt).to(device), ant.to(torch.int32).to(device),
            prn.to(torch.int32).to(device), carrier.to(device), code_nco.to(device), shifts.to(device))


def reference(samples, codes, ant, prn, carrier, code_nco, shifts):
    A, N, _ = samples.shape
    L = codes.shape[1]
    dev = samples.device
    x = torch.complex(samples[..., 0].double(), samples[..., 1].double())[ant.long()]       # [C, N]
    n = torch.arange(N, dtype=torch.float64, device=dev)
    phi = carrier[:, 0:1].double() + n[None, :] * carrier[:, 1:2].double()
    wiped = x * torch.exp(-1j * phi)
    table = codes.double()[prn.long()]                                                         # [C, L]
    ni = torch.arange(N, dtype=torch.int64, device=dev)
    cnco = code_nco.long()
    outs = []
    for k in range(shifts.shape[0]):
        idx = torch.div(ni[None, :] * cnco[:, 1:2] + int(shifts[k]) - cnco[:, 0:1], Q16, rounding_mode="floor")
        idx = torch.where(idx < 0, idx + L, torch.where(idx >= L, idx - L, idx))
        outs.append((wiped * torch.gather(table, 1, idx)).sum(1))
    corr = torch.stack(outs, dim=1)                                                            # [C, K]
    return torch.stack([corr.real, corr.imag], dim=-1).to(samples.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    K = len(META["shifts_samples"])
    return {"bytes": 8 * s["C"] * K * s["N"] + 4 * min(50, s["C"]) * s["L"],
            "flops": s["C"] * K * s["N"] * 40}
