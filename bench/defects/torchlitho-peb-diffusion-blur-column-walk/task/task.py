"""Post-exposure-bake acid diffusion and resist development threshold (TorchLitho-style resist model).

The latent acid image of a chemically amplified resist diffuses during the post-exposure bake; with a
diffusion length sigma (nm) the diffused image is the aerial image convolved with a normalised 2-D
Gaussian, applied separably: a horizontal pass then a vertical pass with the same 2R+1 taps
(R = ceil(3 sigma / pixel), zero outside the clip). The developed resist image is the sigmoid threshold
    Z = sigmoid(theta_z * (I_diffused - I_th))          (theta_z = 50, I_th = 0.225 as in lithosim)
Inputs: aerial images [B, H, W] fp32, taps [2R+1] fp32 (sum 1), theta_z, i_th. Returns Z [B, H, W] fp32.
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "peb_diffusion_resist",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 24, "W": 32, "sigma": 1.5},
        "ragged": {"B": 3, "H": 37, "W": 61, "sigma": 2.0},
        "large": {"B": 8, "H": 2048, "W": 2048, "sigma": 6.0},
    },
    "baseline_notes": "Two launches over grid (W/512, H, B): the horizontal pass loads 2R+1 shifted "
                      "512-wide row segments and writes the row-blurred image; the vertical pass loads the "
                      "same 512 columns from rows r-R..r+R, finishes the blur and applies the resist "
                      "sigmoid. 4 warps, no autotune.",
    "deterministic": True,
}
THETA_Z = 50.0
I_TH = 0.225


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """aerial [B, H, W] (a dense line/space-like image around the threshold), taps [2R+1], theta_z, i_th."""
    s = META["sizes"][size]
    B, H, W, sigma = s["B"], s["H"], s["W"], s["sigma"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ys = torch.arange(H, dtype=torch.float32)[None, :, None]
    xs = torch.arange(W, dtype=torch.float32)[None, None, :]
    phase = torch.rand(B, 1, 1, generator=g) * 6.283
    pitch = 9.0 + 4.0 * torch.rand(B, 1, 1, generator=g)
    aerial = 0.225 + 0.18 * torch.sin(xs / pitch + phase) * torch.cos(ys / (1.7 * pitch))
    aerial = aerial + 0.02 * torch.rand(B, H, W, generator=g)
    radius = math.ceil(3.0 * sigma)
    t = torch.arange(-radius, radius + 1, dtype=torch.float64)
    taps = torch.exp(-0.5 * (t / sigma) ** 2)
    taps = taps / taps.sum()
    return aerial.to(dt).to(device), taps.to(dt).to(device), THETA_Z, I_TH


def reference(aerial: torch.Tensor, taps: torch.Tensor, theta_z: float, i_th: float) -> torch.Tensor:
    B, H, W = aerial.shape
    k = taps.double().flip(0)[None, None, :]
    radius = (taps.numel() - 1) // 2
    x = aerial.double().reshape(B * H, 1, W)
    x = F.conv1d(x, k, padding=radius).reshape(B, H, W)
    x = x.transpose(1, 2).reshape(B * W, 1, H)
    x = F.conv1d(x, k, padding=radius).reshape(B, W, H).transpose(1, 2)
    return torch.sigmoid(theta_z * (x - i_th)).to(aerial.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["W"]
    taps = 2 * math.ceil(3.0 * s["sigma"]) + 1
    return {"bytes": 16 * n, "flops": 4 * taps * n + 6 * n}
