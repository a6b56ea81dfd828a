"""Bias + residual add after a row-parallel linear (Megatron bias_dropout_add in inference, p = 0): out = residual + (x + bias)."""
import torch

META = {
    "name": "bias_residual_add",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 8, "H": 1000},
        "ragged": {"T": 1001, "H": 5003},
        "large": {"T": 32768, "H": 8192},
    },
    "baseline_notes": "One kernel, grid (token, 2048-column block): x, residual and the bias block loaded, "
                      "residual + (x + bias) rounded to bf16 after each add like the reference; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H] (linear output without bias), bias [H], residual [T, H]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["T"], s["H"], generator=g).to(dt)
    bias = (0.1 * torch.randn(s["H"], generator=g)).to(dt)
    residual = torch.randn(s["T"], s["H"], generator=g).to(dt)
    return x.to(device), bias.to(device), residual.to(device)


def reference(x: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    return residual + (x + bias)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 2 * n}
