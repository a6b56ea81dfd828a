"""Inclusive prefix sum along the last dimension (torch.cumsum(x, dim=-1))."""
import torch

META = {
    "name": "cumsum",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32", "float16"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4},
                  "float16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 4096, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), tl.cumsum over the whole "
                      "row in registers with fp32 accumulation; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] tensor of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x.double(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["N"] * item, "flops": s["M"] * s["N"]}
