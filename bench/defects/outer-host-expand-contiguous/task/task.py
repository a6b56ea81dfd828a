"""Outer product of two vectors, torch.outer(a, b) = a[:, None] * b[None, :] (FlagGems outer)."""
import torch

META = {
    "name": "outer",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32", "float16", "bfloat16"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}, "float16": {"atol": 1e-3, "rtol": 1e-3},
                  "bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 48, "N": 80},
        "ragged": {"M": 3001, "N": 1531},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "2-D grid of 32x256 output tiles: loads the a and b slices once and stores their broadcast "
                      "product; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a [M] and b [N] of standard normals."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    a = torch.randn(s["M"], generator=g).to(dt)
    b = torch.randn(s["N"], generator=g).to(dt)
    return a.to(device), b.to(device)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.outer(a, b)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] + s["N"] + s["M"] * s["N"]) * item, "flops": s["M"] * s["N"]}
