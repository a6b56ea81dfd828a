"""GELU, tanh approximation (HF NewGELUActivation / gelu_pytorch_tanh): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
import math

import torch

META = {
    "name": "gelu_tanh",
    "level": 1,
    "category": "activation",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}, "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 33, "N": 200},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 32768, "N": 6400},
    },
    "baseline_notes": "Flat grid, 4096 elements per program, fp32 math: x*x*x and tanh(u) = 1 - 2 / (1 + exp(2u)) "
                      "with the fast exp; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] MLP pre-activations (GPT-2 XL c_fc output width 6400)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g) * 2.0
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xf = x.double()
    inner = math.sqrt(2.0 / math.pi) * (xf + 0.044715 * torch.pow(xf, 3.0))
    return (0.5 * xf * (1.0 + torch.tanh(inner))).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 10 * n}
