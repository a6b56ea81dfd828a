"""Argmax over all elements (torch.argmax(x) with dim=None): the flat index of the first maximum, int64 scalar (FlagGems argmax)."""
import torch

META = {
    "name": "argmax_flat",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32", "float16"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 100_000},
        "ragged": {"N": 1_000_003},
        "large": {"N": 64 * 1024 * 1024},
    },
    "baseline_notes": "Two stages as FlagGems: ~sqrt(N) programs each take tl.max/tl.argmax of one block "
                      "and store (value, index); one program picks the first block holding the maximum; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One flat tensor [N] of standard normals."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.argmax(x)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": n * item + 8, "flops": n}
