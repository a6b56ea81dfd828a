"""Inclusive log-cumsum-exp along the last dim, torch.logcumsumexp(x, dim=-1) (FlagGems logcumsumexp), long rows."""
import torch

META = {
    "name": "logcumsumexp",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 4, "N": 3000},
        "ragged": {"M": 37, "N": 9001},
        "large": {"M": 1024, "N": 32768},
    },
    "baseline_notes": "One program per row looping over 1024-column blocks, carrying the running (max, sum of "
                      "exp) of the blocks before; inside a block tl.cumsum of exp(x - block max); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N]: normals scaled by 2 (log-probabilities of a sequence model)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = (2.0 * torch.randn(s["M"], s["N"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.logcumsumexp(x.double(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 6 * n}
