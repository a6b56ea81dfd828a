"""Depthwise 7x7 convolution (nn.Conv2d(C, C, 7, padding=3, groups=C) with bias) of a ConvNeXt block on a channels_last activation."""
import torch
import torch.nn.functional as F

META = {
    "name": "depthwise_conv7x7_nhwc",
    "level": 2,
    "category": "conv",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"N": 1, "C": 5, "H": 6, "W": 9},
        "ragged": {"N": 1, "C": 34, "H": 3, "W": 19},
        "large": {"N": 128, "C": 96, "H": 56, "W": 56},
    },
    "baseline_notes": "Grid (16-column block, output row, batch x 32-channel block); 49 shifted [16, 32] (w, c) tiles "
                      "of the NHWC input with channels contiguous, a [32] weight vector per tap, fp32 accumulate, "
                      "output allocated channels_last; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] in torch.channels_last memory format, weight [C, 1, 7, 7], bias [C] (module dtype)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g).to(dt)
    weight = (torch.randn(s["C"], 1, 7, 7, generator=g) * 0.15).to(dt)
    bias = (torch.randn(s["C"], generator=g) * 0.1).to(dt)
    return x.to(device).contiguous(memory_format=torch.channels_last), weight.to(device), bias.to(device)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    y = F.conv2d(x.float(), weight.float(), bias.float(), padding=3, groups=x.shape[1])
    return y.to(x.dtype).contiguous(memory_format=torch.channels_last)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item + 50 * s["C"] * item, "flops": 2 * 49 * n}
