"""torch.clamp(x, min, max) elementwise over a flat tensor with scalar bounds (FlagGems clamp)."""
import torch

META = {
    "name": "clamp",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}, "bfloat16": {"atol": 0, "rtol": 0},
                  "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 10_000},
        "ragged": {"N": 1_000_003},
        "large": {"N": 64 * 1024 * 1024},
    },
    "baseline_notes": "Flat kernel, BLOCK=2048, tl.minimum(tl.maximum(x, lo), hi) into a torch.empty_like "
                      "output; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] of normals scaled by 2, and the bounds -1.5 and 1.0."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = (2 * torch.randn(n, generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), -1.5, 1.0


def reference(x: torch.Tensor, lo: float, hi: float) -> torch.Tensor:
    return torch.clamp(x, lo, hi)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item, "flops": 2 * n}
