"""Fixture task: elementwise sum of two vectors (tiny, for the runner's tests)."""
import torch

META = {
    "name": "vecadd",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32", "float16"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6},
                  "float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 3 * 1021},
        "large": {"N": 1 << 24},
    },
    "baseline_notes": "One program per BLOCK of 256 elements, masked tail.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    n = META["sizes"][size]["N"]
    gen = torch.Generator(device="cpu").manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(n, generator=gen).to(device=device, dtype=dt)
    y = torch.randn(n, generator=gen).to(device=device, dtype=dt)
    return x, y


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + y


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": 3 * n * item, "flops": n}
