"""torch.where(cond, x, y) elementwise over flat fp16 tensors with a boolean condition (FlagGems where_self)."""
import torch

META = {
    "name": "where_self",
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
    "baseline_notes": "Flat kernel, BLOCK=2048: load cond, x and y under the bounds mask, tl.where, one "
                      "store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A random boolean condition [N] (about half set) and x, y [N] of normals."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cond = torch.rand(n, generator=g) < 0.5
    x = torch.randn(n, generator=g).to(dt)
    y = torch.randn(n, generator=g).to(dt)
    return cond.to(device), x.to(device), y.to(device)


def reference(cond: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.where(cond, x, y)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": n * (3 * item + 1), "flops": 0}
