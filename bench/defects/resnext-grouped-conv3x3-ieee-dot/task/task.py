"""Grouped 3x3 convolution (stride 1, pad 1, no bias) on channels-last activations, as a direct-loop Triton kernel."""
import torch
import torch.nn.functional as F

META = {
    "name": "grouped_conv3x3_nhwc",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 2, "H": 6, "W": 6, "C": 64, "G": 4},
        "ragged": {"N": 1, "H": 7, "W": 5, "C": 64, "G": 2},
        "large": {"N": 64, "H": 14, "W": 14, "C": 1024, "G": 32},
    },
    "baseline_notes": "grid (block of 64 output pixels, group); per tap a [64, Cg] x [Cg, Cg] tl.dot in TF32 (cuDNN's "
                      "default for fp32 conv), fp32 accumulator; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, H, W, C] (channels-last), weight [C, 3, 3, C // G] (OIHW permuted to O, KH, KW, I), groups G."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cg = s["C"] // s["G"]
    x = torch.randn(s["N"], s["H"], s["W"], s["C"], generator=g)
    w = torch.randn(s["C"], 3, 3, cg, generator=g) / (9 * cg) ** 0.5
    return x.to(dt).to(device), w.to(dt).to(device), s["G"]


def reference(x: torch.Tensor, w: torch.Tensor, groups: int) -> torch.Tensor:
    y = F.conv2d(x.double().permute(0, 3, 1, 2), w.double().permute(0, 3, 1, 2), padding=1, groups=groups)
    return y.permute(0, 2, 3, 1).contiguous().to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pix = s["N"] * s["H"] * s["W"]
    cg = s["C"] // s["G"]
    return {"bytes": 4 * (2 * pix * s["C"] + s["C"] * 9 * cg), "flops": 2 * pix * s["C"] * 9 * cg}
