"""CELT forward MDCT with the low-overlap window (Opus celt/mdct.c clt_mdct_forward, as called by
compute_mdcts), written as a product with the mode's analysis matrix.

CELT frames of N samples overlap by only OV samples: the MDCT of size 2N sees N + OV input samples
in the middle of a window that is zero for (N - OV) / 2 samples at each end, rises over OV samples
as w[i] = sin(pi/2 * sin^2(pi/2 * (i + 0.5) / OV)), is flat, and falls symmetrically. For frame f of
stream b with input z[m] = sig[b, f*N + m], m in [0, N + OV):

    X[b, f, k] = sum_m w[m] z[m] cos(pi/N * (m + (N - OV)/2 + 1/2 + N/2) * (k + 1/2)),  k in [0, N)

The window and the cosines are folded into the mode's precomputed analysis matrix, stored one
coefficient per row: basis[k, m] (fp32 [N, N + OV], an input like libopus's mode tables), so
X = frames @ basis^T with frames [B*F, N + OV] read straight out of the signal at a hop of N.
Returns X fp32 [B, F, N].
"""
import math

import torch

META = {
    "name": "celt_mdct_forward",
    "level": 2,
    "category": "speech-codec",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "F": 3, "N": 64, "OV": 16},
        "ragged": {"B": 3, "F": 5, "N": 120, "OV": 40},
        # 48 kHz, 20 ms long blocks: N = 960, overlap 120; 16 streams x 30 s = 1500 frames each.
        "large": {"B": 16, "F": 1500, "N": 960, "OV": 120},
    },
    "baseline_notes": "One GEMM-shaped kernel: rows are frames read from the signal at a hop of N, "
                      "coefficient rows of the analysis matrix loaded as [128, 32] tiles and transposed "
                      "on chip, tiles 64 x 128 x 32 with tl.dot (tf32 on tensor cores) into an fp32 "
                      "accumulator, 4 warps, 3 stages; masks on the ragged K = N + OV and N edges.",
    "deterministic": True,
}


def analysis_matrix(n: int, ov: int) -> torch.Tensor:
    i = torch.arange(ov, dtype=torch.float64)
    rise = torch.sin(0.5 * math.pi * torch.sin(0.5 * math.pi * (i + 0.5) / ov) ** 2)
    w = torch.ones(n + ov, dtype=torch.float64)
    w[:ov] = rise
    w[n:] = rise.flip(0)
    m = torch.arange(n + ov, dtype=torch.float64)[:, None]
    k = torch.arange(n, dtype=torch.float64)[None, :]
    return (w[:, None] * torch.cos(math.pi / n * (m + (n - ov) / 2 + 0.5 + n / 2) * (k + 0.5))).T.contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Signal sig [B, F*N + OV] (voiced harmonics with a drifting pitch plus noise, full scale 1.0)
    and the mode's analysis matrix basis [N, N + OV] (row k: window x cosine of coefficient k)."""
    s = META["sizes"][size]
    b, f, n, ov = s["B"], s["F"], s["N"], s["OV"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t_len = f * n + ov
    t = torch.arange(t_len, dtype=torch.float64)[None, :] / 48000.0
    f0 = 90.0 + 160.0 * torch.rand(b, 1, generator=g, dtype=torch.float64)
    drift = 1.0 + 0.1 * torch.sin(2.0 * math.pi * 0.7 * t)
    phase = 2.0 * math.pi * torch.cumsum(f0 * drift / 48000.0, dim=1)
    sig = torch.zeros(b, t_len, dtype=torch.float64)
    for h in range(1, 9):
        sig += torch.cos(h * phase) / h
    sig = 0.25 * sig + 0.02 * torch.randn(b, t_len, generator=g, dtype=torch.float64)
    return sig.to(device=device, dtype=dt), analysis_matrix(n, ov).to(device=device, dtype=dt)


def reference(sig: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
    n, kw = basis.shape
    frames = sig.double().unfold(1, kw, n)  # [B, F, N + OV] at hop N
    return (frames @ basis.double().T).to(sig.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows, n, kw = s["B"] * s["F"], s["N"], s["N"] + s["OV"]
    return {"bytes": 4 * (rows * n + s["B"] * (s["F"] * n + s["OV"]) + kw * n), "flops": 2 * rows * n * kw}
