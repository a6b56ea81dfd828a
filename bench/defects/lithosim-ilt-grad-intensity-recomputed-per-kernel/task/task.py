"""Per-kernel gradient fields of the ILT L2 loss (Neural-ILT / lithosim_cuda, MOSAIC form).

The SOCS lithography model images a mask M with K coherent kernels h_k of weights w_k:
    E_k = dose * (M conv h_k)                      (complex field per kernel, given here as planar re / im)
    I   = sum_k w_k |E_k|^2                        (aerial image)
    Z   = sigmoid(theta_z * (I - I_th))            (resist image, theta_z = 50, I_th = 0.225)
The gradient of the ILT loss ||Z - Z_t||_gamma^gamma (gamma = 4) with respect to the mask needs, for every
kernel, the field times the common term
    common = (Z - Z_t)^(gamma - 1) * Z * (1 - Z)
    G_k    = E_k * common                          (then convolved with the flipped conjugate kernels)
This operator takes the undosed fields field_re / field_im [K, H, W], the SOCS weights [K], the binary
target Z_t [H, W] and the dose, and returns (G_re, G_im) [K, H, W] fp32.
"""
import math

import torch

META = {
    "name": "ilt_grad_common_term_fields",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"K": 4, "H": 24, "W": 24},
        "ragged": {"K": 5, "H": 37, "W": 53},
        "large": {"K": 24, "H": 2048, "W": 2048},
    },
    "baseline_notes": "Two launches: a pixel-block kernel (BLOCK = 1024) sums w_k (re^2 + im^2) over the K "
                      "fields, applies dose^2, the resist sigmoid and the gamma = 4 common term and writes it "
                      "(fp32 [H*W]); a (pixel block, kernel) grid then scales each field by dose * common. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
THETA_Z = 50.0
I_TH = 0.225


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """field_re, field_im [K, H, W], weights [K], target [H, W] (0/1), dose, theta_z, i_th."""
    s = META["sizes"][size]
    K, H, W = s["K"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    weights = torch.exp(-torch.arange(K, dtype=torch.float64) / 4.0)
    weights = weights / weights.sum()
    scale = math.sqrt(I_TH / 2.0)       # puts the aerial image around the resist threshold
    field_re = torch.randn(K, H, W, generator=g, dtype=dt) * scale
    field_im = torch.randn(K, H, W, generator=g, dtype=dt) * scale
    ys = torch.arange(H, dtype=torch.float32)[:, None]
    xs = torch.arange(W, dtype=torch.float32)[None, :]
    target = ((torch.sin(xs / 23.0 + 0.7 * seed) > 0.2) & (torch.cos(ys / 31.0) > -0.3)).to(dt)
    dose = 1.02
    return (field_re.to(device), field_im.to(device), weights.to(dt).to(device), target.to(device),
            dose, THETA_Z, I_TH)


def reference(field_re, field_im, weights, target, dose, theta_z, i_th) -> tuple:
    re, im, w = field_re.double(), field_im.double(), weights.double()
    inten = dose * dose * (w[:, None, None] * (re * re + im * im)).sum(0)
    z = torch.sigmoid(theta_z * (inten - i_th))
    common = (z - target.double()).pow(3) * z * (1.0 - z)
    return ((dose * re * common).to(field_re.dtype), (dose * im * common).to(field_im.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 16 * s["K"] * n + 4 * n, "flops": 8 * s["K"] * n + 12 * n}
