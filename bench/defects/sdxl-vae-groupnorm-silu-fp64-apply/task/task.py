"""GroupNorm(32 groups) + SiLU of the SDXL VAE decoder (diffusers Decoder conv_norm_out / ResnetBlock2D norm + act),
on the fp16 full-resolution feature map [N, C, H, W]; fp16 out."""
import torch

META = {
    "name": "vae_group_norm_silu",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 2, "C": 16, "H": 8, "W": 8, "G": 4},
        "ragged": {"N": 1, "C": 24, "H": 13, "W": 11, "G": 8},
        "large": {"N": 1, "C": 128, "H": 1024, "W": 1024, "G": 32},
    },
    "baseline_notes": "Two launches: a split reduction, grid (N*G, ceil(group/65536)), each program summing x and x^2 "
                      "of a 65,536-element chunk of its contiguous group in 4,096-wide fp64 accumulators; then a "
                      "(N*C, HW/4096) apply grid that folds its group's partials into a per-channel scale/shift, "
                      "and normalises + SiLU in fp32.",
    "deterministic": True,
}
EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] (decoder activations: per-channel offsets and scales), weight [C], bias [C], groups."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.rand(s["C"], 1, 1, generator=g) * 3.0 + 0.5
    offset = torch.randn(s["C"], 1, 1, generator=g) * 2.0
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g) * scale + offset
    w = 1.0 + 0.2 * torch.randn(s["C"], generator=g)
    b = 0.2 * torch.randn(s["C"], generator=g)
    return x.to(dt).to(device), w.to(dt).to(device), b.to(dt).to(device), s["G"]


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, groups: int) -> torch.Tensor:
    y = torch.nn.functional.group_norm(x.double(), groups, weight.double(), bias.double(), EPS)
    return torch.nn.functional.silu(y).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 2 * (2 * n + 2 * s["C"]), "flops": 12 * n}
