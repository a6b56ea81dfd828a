"""Batched contrast jitter (torchvision v2 adjust_contrast with a per-image factor): blend each image with the mean of its grayscale."""
import torch

META = {
    "name": "contrast_jitter_batch",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "H": 40, "W": 40},
        "ragged": {"B": 5, "H": 37, "W": 45},
        "large": {"B": 256, "H": 224, "W": 224},
    },
    "baseline_notes": "Two kernels: one program per image reduces the grayscale sum once (4,096 pixels a step), then a "
                      "(image, block of 1,024 pixels) grid blends with the stored mean and clamps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images [B, 3, H, W] in [0, 1] (after ToDtype(float32, scale=True)), contrast factors [B] in [0.6, 1.4]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    img = torch.rand(s["B"], 3, s["H"], s["W"], generator=g)
    img = img * torch.rand(s["B"], 1, 1, 1, generator=g)  # darker and brighter images
    factor = 0.6 + 0.8 * torch.rand(s["B"], generator=g)
    return img.to(dt).to(device), factor.to(dt).to(device)


def reference(img: torch.Tensor, factor: torch.Tensor) -> torch.Tensor:
    x = img.double()
    gray = 0.2989 * x[:, 0] + 0.587 * x[:, 1] + 0.114 * x[:, 2]
    mean = gray.mean(dim=(-2, -1)).view(-1, 1, 1, 1)
    f = factor.double().view(-1, 1, 1, 1)
    return (f * x + (1.0 - f) * mean).clamp(0.0, 1.0).to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * 3 * s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 6 * n}
