"""Layer scale plus residual on NCHW features (timm ConvNeXt block: shortcut + x * gamma.reshape(1, -1, 1, 1))."""
import torch

META = {
    "name": "layerscale_residual",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 2, "C": 8, "H": 5, "W": 7},
        "ragged": {"B": 3, "C": 97, "H": 29, "W": 31},
        "large": {"B": 128, "C": 256, "H": 56, "W": 56},
    },
    "baseline_notes": "Grid (B * C, HW blocks of 1024): the channel and its gamma are per-program scalars, the "
                      "plane offset contiguous; out = shortcut + gamma * x in fp32, stored in the input dtype.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x and shortcut [B, C, H, W] in the activation dtype, gamma [C] fp32 (layer-scale init 1e-6 grown by training)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["H"], s["W"])
    x = torch.randn(shape, generator=g).to(dt)
    shortcut = torch.randn(shape, generator=g).to(dt)
    gamma = 0.1 * torch.randn(s["C"], generator=g)
    return x.to(device), shortcut.to(device), gamma.to(device)


def reference(x: torch.Tensor, shortcut: torch.Tensor, gamma: torch.Tensor) -> torch.Tensor:
    return (shortcut.float() + x.float() * gamma.reshape(1, -1, 1, 1)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["C"], "flops": 2 * n}
