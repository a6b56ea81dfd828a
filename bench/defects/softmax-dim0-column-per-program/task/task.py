"""Softmax over dim 0 (torch.softmax(x, dim=0)) of an [N, C] tensor: each column is normalised over the rows."""
import torch

META = {
    "name": "softmax_dim0",
    "level": 1,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-2},
                  "bfloat16": {"atol": 4e-3, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 100, "C": 96},
        "ragged": {"N": 1531, "C": 1000},
        "large": {"N": 4096, "C": 8192},
    },
    "baseline_notes": "One program per 32 contiguous columns: an online max/sum pass over 128-row tiles, then "
                      "a second pass writing exp(x - max) / sum; every tile is read along the contiguous axis.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C] standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(s["N"], s["C"], generator=g).to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.float(), dim=0).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["N"] * s["C"] * item, "flops": 5 * s["N"] * s["C"]}
