"""Index of the minimum along the middle dim, torch.argmin(x, dim=1) on [B, N, K] (FlagGems argmin with dim)."""
import torch

META = {
    "name": "argmin_dim1",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "N": 300, "K": 40},
        "ragged": {"B": 3, "N": 1001, "K": 771},
        "large": {"B": 16, "N": 8192, "K": 1024},
    },
    "baseline_notes": "Grid (batch, 32-column block of K): [64, 32] tiles with K contiguous, running (min, first "
                      "index) per column over N; 4 warps; int64 output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, N, K] of standard normals (ties have probability ~0)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["N"], s["K"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.argmin(x, dim=1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"] * s["K"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["B"] * s["K"], "flops": n}
