"""torch.flip(x, dims=[-1]): reverse each row of a [M, N] tensor (FlagGems flip, e.g. bidirectional scans / image mirroring)."""
import torch

META = {
    "name": "flip_last_dim",
    "level": 1,
    "category": "layout",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}, "bfloat16": {"atol": 0, "rtol": 0},
                  "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 8, "N": 2048},
        "ragged": {"M": 1001, "N": 16_384},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "2-D grid (row, 1024-column block): loads the mirrored source block contiguously, "
                      "reverses it on chip with tl.flip, one contiguous store; N a multiple of the block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] of standard normals (N a multiple of 1024)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.flip(x, dims=[-1])


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["M"] * s["N"] * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
