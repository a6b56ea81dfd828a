"""Elementwise add of two tensors of the same shape (torch.add)."""
import torch

META = {
    "name": "add",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"n": 4096},
        "ragged": {"n": 1_000_003},
        "large": {"n": 32 * 1024 * 1024},
    },
    "baseline_notes": "One program per 1024-element block over the flattened tensors, masked "
                      "tail, computed in the input dtype; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Two flat tensors of standard normals."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return tuple(torch.randn(n, generator=g).to(device=device, dtype=dt) for _ in range(2))


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + y


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * n * item, "flops": n}
