"""torch.tile of a 2-D tensor (x.repeat(RM, RN)): the input copied RM times down and RN times across."""
import torch

META = {
    "name": "tile_2d",
    "level": 1,
    "category": "layout",
    "dtypes": ["bfloat16", "float32"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 13, "N": 40, "RM": 3, "RN": 2},
        "ragged": {"M": 301, "N": 1001, "RM": 2, "RN": 3},
        "large": {"M": 4096, "N": 1024, "RM": 4, "RN": 8},
    },
    "baseline_notes": "3-D grid (output row, column block, repeat across); each program copies a 1024-wide block of "
                      "source row r % M into torch.empty output; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N], RM, RN."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), s["RM"], s["RN"]


def reference(x: torch.Tensor, rm: int, rn: int) -> torch.Tensor:
    return torch.tile(x, (rm, rn))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": getattr(torch, dtype or META["dtypes"][0]).itemsize * n * (1 + s["RM"] * s["RN"]), "flops": 0}
