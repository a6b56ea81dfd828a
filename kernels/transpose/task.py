"""Materialised 2-D transpose (x.t().contiguous())."""
import torch

META = {
    "name": "transpose",
    "level": 1,
    "category": "layout",
    "dtypes": ["float16", "float32"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0},
                  "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 96, "N": 160},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "2-D grid of 64x64 tiles: each program loads a tile row-major and stores it "
                      "at transposed addresses, leaving any layout change to the compiler; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] tensor of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.t().contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["N"] * item, "flops": 0}
