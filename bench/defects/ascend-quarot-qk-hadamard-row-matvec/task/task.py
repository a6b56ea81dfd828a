"""QuaRot online Hadamard rotation of query/key heads before low-bit KV quantisation.

(QuaRot QKRotationWrapper / fast_hadamard_transform(x, scale=1/sqrt(d)); msModelSlim QuaRot.)
Every head vector x[t, h, :] of length D = 128 is rotated by the normalised Walsh-Hadamard matrix:
    y[t, h, :] = (x[t, h, :] @ H) / sqrt(D)
H is the +-1 Sylvester Hadamard matrix (symmetric), given as a bf16 [D, D] tensor. bf16 in and out,
fp32 accumulation.
"""
import math

import torch

META = {
    "name": "quarot_head_hadamard",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 24, "H": 4, "D": 128},
        "ragged": {"T": 37, "H": 3, "D": 128},
        "large": {"T": 16384, "H": 32, "D": 128},
    },
    "baseline_notes": "Persistent grid of min(row tiles, 20) programs (one per AI cube core); the [D, D] "
                      "Hadamard matrix loaded once per program; [128 rows, D] tiles of head vectors times H "
                      "by tl.dot (bf16 operands, fp32 accumulate), scaled by 1/sqrt(D), stored as bf16.",
    "deterministic": True,
}


def sylvester_hadamard(d: int) -> torch.Tensor:
    h = torch.ones(1, 1)
    while h.shape[0] < d:
        h = torch.cat([torch.cat([h, h], 1), torch.cat([h, -h], 1)], 0)
    return h


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H, D] post-RoPE query/key heads (a few outlier channels), hadamard [D, D] of +-1."""
    s = META["sizes"][size]
    T, H, D = s["T"], s["H"], s["D"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(T, H, D, generator=g)
    x[..., :: D // 8] *= 8.0
    dt = getattr(torch, dtype or META["dtypes"][0])
    return x.to(dt).to(device), sylvester_hadamard(D).to(dt).to(device)


def reference(x: torch.Tensor, hadamard: torch.Tensor) -> torch.Tensor:
    D = x.shape[-1]
    y = (x.double() @ hadamard.double()) * (1.0 / math.sqrt(D))
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["T"] * s["H"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * rows * s["D"] * item + s["D"] * s["D"] * item, "flops": 2 * rows * s["D"] * s["D"]}
