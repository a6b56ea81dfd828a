"""Lower triangle of a batch of matrices, torch.tril(x, diagonal) (FlagGems tril): elements above the diagonal set to zero."""
import torch

META = {
    "name": "tril",
    "level": 1,
    "category": "layout",
    "dtypes": ["float16", "float32"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}, "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "M": 40, "N": 72, "diagonal": 0},
        "ragged": {"B": 3, "M": 1000, "N": 1531, "diagonal": 2},
        "large": {"B": 16, "M": 4096, "N": 4096, "diagonal": 0},
    },
    "baseline_notes": "2-D grid (batch * row, 1024-column block): tl.where(col <= row + diagonal, x, 0) stored "
                      "for every element into a torch.empty output; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, M, N] of standard normals and the diagonal offset."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), s["diagonal"]


def reference(x: torch.Tensor, diagonal: int) -> torch.Tensor:
    return torch.tril(x, diagonal)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
