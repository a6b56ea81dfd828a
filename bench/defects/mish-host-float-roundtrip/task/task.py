"""Mish activation (F.mish): x * tanh(softplus(x)), on a bf16 conv activation."""
import torch

META = {
    "name": "mish",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 17, "W": 19},
        "ragged": {"N": 3, "C": 61, "H": 51, "W": 53},
        "large": {"N": 32, "C": 256, "H": 128, "W": 128},
    },
    "baseline_notes": "Flat grid, 2048 elements per program; loads bf16, mish in fp32 registers "
                      "(tanh(softplus(x)) = n / (n + 2) with n = e^x (e^x + 2)), stores bf16; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] activations of a CSPDarknet stage."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g) * 3.0
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.mish(x.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 8 * n}
