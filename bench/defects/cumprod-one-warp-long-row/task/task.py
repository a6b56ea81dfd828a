"""Inclusive cumulative product along the last dimension, torch.cumprod(x, dim=-1) (FlagGems cumprod), on factors near 1 (survival / discount products)."""
import torch

META = {
    "name": "cumprod",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 8, "N": 1000},
        "ragged": {"M": 1001, "N": 5003},
        "large": {"M": 4096, "N": 16384},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), tl.associative_scan with a multiply "
                      "combine over the row in registers (padding 1.0); 16 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N]: factors 1 + 0.01 * normal, so the products stay within a few orders of magnitude."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = (1.0 + 0.01 * torch.randn(s["M"], s["N"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumprod(x.double(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": n}
