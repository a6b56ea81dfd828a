"""Gemma RMSNorm: y = x * rsqrt(mean(x^2) + eps) * (1 + w), computed in fp32, per row."""
import torch

META = {
    "name": "gemma_rmsnorm",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"M": 11, "N": 300},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 16384, "N": 3584},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over its rows one at a time ([1, BLOCK_N] "
                      "tile); the weight row and 1 + w are loaded and formed once per program, before the row loop.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] hidden states, w [N] Gemma norm weight (stored as w, applied as 1 + w), eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g).to(dt)
    w = (0.1 * torch.randn(s["N"], generator=g)).to(dt)
    return x.to(device), w.to(device), 1e-6


def reference(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * (1.0 + w.float())).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 5 * n}
