"""Liger-Kernel DyT backward (y = gamma * tanh(alpha * x) + beta): dx, dgamma, dbeta and dalpha from x, dy."""
import torch

META = {
    "name": "dyt_backward",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 24, "N": 300},
        "ragged": {"M": 1001, "N": 3000},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "1024 programs, each owning a slice of rows; column chunks outer, rows inner, dgamma/dbeta "
                      "partials in registers stored once per chunk; a second kernel sums the partials.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, dy [M, N] in the activation dtype; alpha [1] and gamma [N] in fp32 (the parameters)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (2.0 * torch.randn(s["M"], s["N"], generator=g)).to(dt)
    dy = torch.randn(s["M"], s["N"], generator=g).to(dt)
    alpha = torch.tensor([0.5])
    gamma = 1.0 + 0.1 * torch.randn(s["N"], generator=g)
    return x.to(device), dy.to(device), alpha.to(device), gamma.to(device)


def reference(x: torch.Tensor, dy: torch.Tensor, alpha: torch.Tensor, gamma: torch.Tensor) -> tuple:
    x64, dy64, a, g = x.double(), dy.double(), alpha.double(), gamma.double()
    t = torch.tanh(a * x64)
    dtanh = 1.0 - t * t
    dx = (dy64 * g * a * dtanh).to(x.dtype)
    dgamma = (dy64 * t).sum(0).float()
    dbeta = dy64.sum(0).float()
    dalpha = (dy64 * g * x64 * dtanh).sum().reshape(1).float()
    return dx, dgamma, dbeta, dalpha


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 14 * n}
