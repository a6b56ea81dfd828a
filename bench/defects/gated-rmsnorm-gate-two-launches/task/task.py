"""Gated RMSNorm of Mamba-2 (mamba_ssm RMSNormGated, norm_before_gate=False): y = rmsnorm(x * silu(z)) * weight."""
import torch

META = {
    "name": "rmsnorm_gated",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 24, "H": 96},
        "ragged": {"T": 1003, "H": 1560},
        "large": {"T": 32768, "H": 5120},
    },
    "baseline_notes": "One program per token row (BLOCK = next_power_of_2(H), 8 warps): the gate x * silu(z), its "
                      "mean square and the scaled output in registers, one launch; eps = 1e-5.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x and z [T, H] (the two halves of the in_proj output) in the activation dtype, weight [H] fp32, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["T"], s["H"], generator=g).to(dt)
    z = torch.randn(s["T"], s["H"], generator=g).to(dt)
    w = 1.0 + 0.1 * torch.randn(s["H"], generator=g)
    return x.to(device), z.to(device), w.to(device), 1e-5


def reference(x: torch.Tensor, z: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    g = x.float() * torch.nn.functional.silu(z.float())
    rstd = torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + eps)
    return (g * rstd * w).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * n * item + 4 * s["H"], "flops": 8 * n}
