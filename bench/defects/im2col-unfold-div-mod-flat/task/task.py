"""im2col (torch.nn.functional.unfold) for a 3x3 convolution: out[n, (c, kh, kw), (oh, ow)] =
x[n, c, oh * stride - pad + kh * dil, ow * stride - pad + kw * dil], zero outside the image."""
import torch

META = {
    "name": "im2col_unfold",
    "level": 1,
    "category": "data-movement",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 9, "W": 7},
        "ragged": {"N": 3, "C": 5, "H": 23, "W": 19},
        "large": {"N": 64, "C": 64, "H": 56, "W": 56},
    },
    "baseline_notes": "2-D grid: axis 0 is one row (n, c, kh, kw) of the column matrix, decoded once per program; "
                      "axis 1 tiles the output image in [8, next_pow2(OW)] blocks of (oh, ow), so no per-element "
                      "division.",
    "deterministic": True,
}

KERNEL, STRIDE, PAD, DIL = 3, 1, 1, 1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] (a ResNet-50 conv2_x activation at the large size), kernel size, stride, padding, dilation."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.relu(torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g))
    return x.to(dt).to(device), KERNEL, STRIDE, PAD, DIL


def reference(x: torch.Tensor, kernel: int, stride: int, pad: int, dil: int) -> torch.Tensor:
    return torch.nn.functional.unfold(x.float(), kernel, dilation=dil, padding=pad, stride=stride).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    out = s["N"] * s["C"] * KERNEL * KERNEL * s["H"] * s["W"]   # stride 1, same padding
    return {"bytes": item * (out + s["N"] * s["C"] * s["H"] * s["W"]), "flops": 0}
