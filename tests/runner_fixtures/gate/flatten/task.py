"""Fixture task: a flattened copy of a matrix (x.reshape(-1), materialised)."""
import torch

META = {
    "name": "flatten",
    "level": 1,
    "category": "layout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {"small": {"M": 8, "N": 100}, "ragged": {"M": 33, "N": 77}, "large": {"M": 4096, "N": 4096}},
    "baseline_notes": "One program per 256 elements copying the flattened matrix.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(s["M"], s["N"], generator=g).to(device=device, dtype=getattr(torch, dtype or "float32")),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.reshape(-1).clone()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["M"] * s["N"], "flops": 0}
