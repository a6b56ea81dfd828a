"""Wan 2.1 VAE decoder head: RMS_norm over the channel axis of a [B, C, T, H, W] video feature map, then SiLU.

Wan's RMS_norm(channel_first=True, images=False) is F.normalize(x, dim=1) * sqrt(C) * gamma (no bias): every
pixel of every frame is scaled by the L2 norm of its C channel values, which sit T*H*W elements apart.
"""
import torch

META = {
    "name": "wan_vae_rms_norm_silu",
    "level": 2,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 96, "T": 2, "H": 8, "W": 12},
        "ragged": {"B": 2, "C": 192, "T": 1, "H": 9, "W": 13},
        "large": {"B": 1, "C": 96, "T": 4, "H": 720, "W": 1280},
    },
    "baseline_notes": "2-D grid (block of 64 pixels, sample): each program loads a [next_pow2(C), 64] tile whose "
                      "pixel axis is contiguous, reduces the squares over the channel axis, scales by sqrt(C) * gamma "
                      "/ max(norm, eps), applies SiLU and stores the tile; 4 warps.",
    "deterministic": True,
}

EPS = 1e-12


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T, H, W] decoder features and gamma [C]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["C"], s["T"], s["H"], s["W"])
    x = torch.randn(shape, generator=g) * 1.5 + 0.25
    gamma = 1.0 + 0.1 * torch.randn(s["C"], generator=g)
    return x.to(dt).to(device), gamma.to(torch.float32).to(device)


def reference(x: torch.Tensor, gamma: torch.Tensor) -> torch.Tensor:
    c = x.shape[1]
    xd = x.double()
    y = xd / xd.norm(dim=1, keepdim=True).clamp_min(EPS) * (c ** 0.5) * gamma.double().view(1, c, 1, 1, 1)
    return torch.nn.functional.silu(y).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    numel = s["B"] * s["C"] * s["T"] * s["H"] * s["W"]
    return {"bytes": 2 * 4 * numel + 4 * s["C"], "flops": 8 * numel}
