"""RMSNorm forward over a wide hidden size: y = x * rsqrt(mean(x^2) + eps) * w, per row."""
import torch

META = {
    "name": "rmsnorm_wide",
    "level": 1,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"M": 7, "N": 5000},
        "ragged": {"M": 301, "N": 12001},
        "large": {"M": 8192, "N": 16384},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over its rows; per row a sum-of-squares loop "
                      "over 2048-column chunks (fits the UB), then a normalise loop over the same chunks.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] hidden states, w [N] RMSNorm weight, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g).to(dt)
    w = (1.0 + 0.1 * torch.randn(s["N"], generator=g)).to(dt)
    return x.to(device), w.to(device), 1e-5


def reference(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * w.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 4 * n}
