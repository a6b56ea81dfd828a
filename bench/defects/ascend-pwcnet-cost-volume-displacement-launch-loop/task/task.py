"""PWC-Net partial cost volume: local correlation of two feature maps over a (2 md + 1)^2 window.

At every pyramid level PWC-Net (Sun et al., CVPR 2018; NVlabs PyTorch release) correlates the first
image's features with the second image's features warped by the upsampled flow, over all integer
displacements |dy|, |dx| <= md (md = 4: 81 channels), with the FlowNet correlation layer's
normalisation by the channel count, then applies LeakyReLU(0.1):
    cv[b, (dy + md) * (2 md + 1) + (dx + md), y, x]
        = leaky_relu( (1 / C) * sum_c f1[b, c, y, x] * f2[b, c, y + dy, x + dx], 0.1 )
with f2 read as 0 outside the image (the layer's zero padding of md). Inputs are fp32 NCHW feature maps
[B, C, H, W] and md; the output is fp32 [B, (2 md + 1)^2, H, W].
"""
import torch
import torch.nn.functional as F

META = {
    "name": "pwcnet_cost_volume",
    "level": 2,
    "category": "correlation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 8, "H": 6, "W": 11, "md": 4},
        "ragged": {"B": 2, "C": 12, "H": 7, "W": 13, "md": 4},
        "large": {"B": 4, "C": 32, "H": 112, "W": 256, "md": 4},
    },
    "baseline_notes": "One launch; 40 programs (the 910B's vector cores) loop over tiles of one feature row "
                      "segment (all C channels x 128 pixels); each tile loads its f1 block once and walks "
                      "the 81 displacements in the kernel, loading the shifted, zero-masked f2 block, "
                      "reducing over channels, applying 1/C and LeakyReLU(0.1) and storing one output "
                      "row segment per displacement; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f1, f2 [B, C, H, W] (f2 correlated with a shifted f1, as after warping), and md (int)."""
    s = META["sizes"][size]
    b, c, h, w, md = s["B"], s["C"], s["H"], s["W"], s["md"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f1 = torch.randn(b, c, h, w, generator=g)
    f2 = 0.7 * torch.roll(f1, shifts=(1, -2), dims=(2, 3)) + 0.5 * torch.randn(b, c, h, w, generator=g)
    return f1.to(dt).to(device), f2.to(dt).to(device), md


def reference(f1: torch.Tensor, f2: torch.Tensor, md: int) -> torch.Tensor:
    _, c, h, w = f1.shape
    a = f1.double()
    p = F.pad(f2.double(), (md, md, md, md))
    planes = []
    for dy in range(-md, md + 1):
        for dx in range(-md, md + 1):
            shifted = p[:, :, md + dy:md + dy + h, md + dx:md + dx + w]
            planes.append((a * shifted).sum(1) / c)
    return F.leaky_relu(torch.stack(planes, 1), 0.1).to(f1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, c, h, w, md = s["B"], s["C"], s["H"], s["W"], s["md"]
    d = (2 * md + 1) ** 2
    return {"bytes": 4 * (2 * b * c * h * w + b * d * h * w), "flops": 2 * d * b * c * h * w}
