"""Scharr derivatives of one image-pyramid level, the first step of pyramidal Lucas-Kanade tracking.

OpenCV's calcOpticalFlowPyrLK (the KLT front end of VINS-Mono / VINS-Fusion and of many ORB-SLAM
style trackers) differentiates every level of the previous frame's pyramid with the 3x3 Scharr
operator before it iterates the per-feature 2x2 Lucas-Kanade systems:
    Ix = 3 (I[y-1,x+1] - I[y-1,x-1]) + 10 (I[y,x+1] - I[y,x-1]) + 3 (I[y+1,x+1] - I[y+1,x-1])
    Iy = 3 (I[y+1,x-1] - I[y-1,x-1]) + 10 (I[y+1,x] - I[y-1,x]) + 3 (I[y+1,x+1] - I[y-1,x+1])
This port works on a batch of grayscale frames stored as fp32 [B, H, W] (0..255 intensities) and writes
the two derivative planes [B, 2, H, W] (Ix, Iy); pixels outside the image read as 0, the border rule
of F.conv2d(padding=1) that the PyTorch version of the tracker uses.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "pyrlk_scharr_deriv",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "H": 21, "W": 37},
        "ragged": {"B": 3, "H": 29, "W": 45},
        "large": {"B": 8, "H": 480, "W": 752},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over 8 x 256 pixel tiles of every frame; "
                      "each tile reads the 8 neighbour taps row by row with contiguous, bounds-masked loads (zero "
                      "outside the image), forms Ix and Iy with the 3/10/3 Scharr weights and stores both "
                      "planes; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A batch of grayscale frames img [B, H, W]: smooth structure plus noise, integer intensities."""
    s = META["sizes"][size]
    b, h, w = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    phase = torch.rand(b, 1, 1, generator=g) * 6.28
    base = 128.0 + 60.0 * torch.sin(xx / 9.0 + phase) * torch.cos(yy / 13.0 - phase)
    img = (base + 40.0 * torch.rand(b, h, w, generator=g)).round().clamp(0.0, 255.0)
    return (img.to(dt).to(device),)


def reference(img: torch.Tensor) -> torch.Tensor:
    kx = torch.tensor([[-3.0, 0.0, 3.0], [-10.0, 0.0, 10.0], [-3.0, 0.0, 3.0]], dtype=torch.float64)
    weight = torch.stack([kx, kx.t()])[:, None].to(img.device)
    d = F.conv2d(img.double()[:, None], weight, padding=1)
    return d.to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 20 * n}
