"""Megatron-LM fused bias + GELU (tanh form) on the MLP up-projection output: gelu_tanh(x + b)."""
import torch

META = {
    "name": "bias_gelu",
    "level": 2,
    "category": "activation",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 32, "N": 256},
        "ragged": {"M": 1000, "N": 3071},
        "large": {"M": 8192, "N": 16384},
    },
    "baseline_notes": "Flattened elementwise kernel, BLOCK=1024; the bias column is recovered "
                      "as offset % N, math in fp32 with tanh written as 2*sigmoid(2x)-1; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Pre-activation x [M, N] and bias b [N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 2 * torch.randn(s["M"], s["N"], generator=g)
    b = 0.5 * torch.randn(s["N"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return x.to(device=device, dtype=dt), b.to(device=device, dtype=dt)


def reference(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x.float() + b.float(), approximate="tanh").to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["M"] * s["N"] + s["N"]) * item, "flops": 11 * s["M"] * s["N"]}
