"""GroupNorm followed by SiLU (diffusers ResnetBlock2D: hidden = nonlinearity(norm1(x))), affine, 32 groups."""
import torch

META = {
    "name": "group_norm_silu",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 5e-3, "rtol": 5e-3}, "bfloat16": {"atol": 3e-2, "rtol": 3e-2}},
    "sizes": {
        "small": {"N": 2, "C": 64, "H": 5, "W": 7, "G": 32},
        "ragged": {"N": 3, "C": 96, "H": 37, "W": 29, "G": 32},
        "large": {"N": 16, "C": 320, "H": 128, "W": 128, "G": 32},
    },
    "baseline_notes": "One program per (sample, group): a sum / sum-of-squares loop over the group's C/G x HW "
                      "values, then a loop per channel that normalises, applies weight and bias and SiLU in "
                      "registers and stores once; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] UNet activations, weight [C], bias [C], num_groups, eps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g) * 1.5 + 0.3
    w = 1.0 + 0.2 * torch.randn(s["C"], generator=g)
    b = 0.1 * torch.randn(s["C"], generator=g)
    return x.to(dt).to(device), w.to(dt).to(device), b.to(dt).to(device), s["G"], 1e-5


def reference(x, weight, bias, num_groups: int, eps: float) -> torch.Tensor:
    y = torch.nn.functional.group_norm(x.float(), num_groups, weight.float(), bias.float(), eps)
    return torch.nn.functional.silu(y).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 10 * n}
