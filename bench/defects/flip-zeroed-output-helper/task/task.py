"""Reverse the last dim, torch.flip(x, dims=[-1]) (FlagGems flip), on a 2-D tensor."""
import torch

META = {
    "name": "flip_last",
    "level": 1,
    "category": "layout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 6, "N": 3000},
        "ragged": {"M": 1001, "N": 5003},
        "large": {"M": 8192, "N": 16384},
    },
    "baseline_notes": "Grid (rows, 2048-column blocks): out[r, c] = x[r, N - 1 - c] into a torch.empty output; "
                      "4 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.flip(x, dims=[-1])


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["M"] * s["N"] * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
