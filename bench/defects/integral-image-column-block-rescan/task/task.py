"""Summed-area table (integral image) of a batch of frames: out[n, y, x] = sum of img[n, :y+1, :x+1]."""
import torch

META = {
    "name": "integral_image",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "H": 70, "W": 90},
        "ragged": {"N": 1, "H": 53, "W": 131},
        "large": {"N": 16, "H": 1080, "W": 1920},
    },
    "baseline_notes": "two launches: row prefix (one program per row, tl.cumsum over the padded width), then a column "
                      "prefix with one program per (frame, 64-column strip) walking 32-row tiles and carrying the "
                      "running column sum.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """img [N, H, W] grayscale frames in [0, 1] (8-bit levels)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    img = torch.randint(0, 256, (s["N"], s["H"], s["W"]), generator=g).float() / 255.0
    return (img.to(dt).to(device),)


def reference(img: torch.Tensor) -> torch.Tensor:
    return img.double().cumsum(-1).cumsum(-2).to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["H"] * s["W"]
    return {"bytes": 4 * 2 * n, "flops": 2 * n}
