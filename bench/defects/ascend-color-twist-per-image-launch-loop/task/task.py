"""Batched colour augmentation + normalisation of decoded images (DALI brightness_contrast + saturation +
crop_mirror_normalize, per-sample random parameters): v = brightness_i * x; v = 128 + contrast_i * (v - 128);
v = saturation_i * v + (1 - saturation_i) * gray(v) (BT.601 luma); v = clamp(v, 0, 255);
out = (v / 255 - mean_c) / std_c. Input uint8 [B, 3, H, W] (decode_jpeg CHW), output fp32 [B, 3, H, W]."""
import torch

META = {
    "name": "batch_color_twist_normalize",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "H": 20, "W": 20},
        "ragged": {"B": 5, "H": 31, "W": 29},
        "large": {"B": 256, "H": 224, "W": 224},
    },
    "baseline_notes": "One launch for the whole batch: grid = 40 vector cores, each looping over (image, "
                      "4096-pixel block) tiles; a tile loads its image's three factors as scalars, the three "
                      "uint8 planes at the same pixel offsets, and stores three fp32 planes.",
    "deterministic": True,
}

MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images uint8 [B, 3, H, W] and per-image factors [B, 3] fp32 (brightness, contrast, saturation, each
    uniform in [0.6, 1.4] as ColorJitter(0.4, 0.4, 0.4) draws them)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    images = torch.randint(0, 256, (s["B"], 3, s["H"], s["W"]), generator=g, dtype=torch.uint8)
    factors = 0.6 + 0.8 * torch.rand(s["B"], 3, generator=g)
    return images.to(device), factors.to(device)


def reference(images: torch.Tensor, factors: torch.Tensor) -> torch.Tensor:
    x = images.double()
    f = factors.double()
    bright, contrast, sat = (f[:, i].view(-1, 1, 1, 1) for i in range(3))
    v = x * bright
    v = 128.0 + contrast * (v - 128.0)
    gray = 0.299 * v[:, 0:1] + 0.587 * v[:, 1:2] + 0.114 * v[:, 2:3]
    v = sat * v + (1.0 - sat) * gray
    v = v.clamp(0.0, 255.0)
    mean = torch.tensor(MEAN, dtype=torch.float64, device=x.device).view(1, 3, 1, 1)
    std = torch.tensor(STD, dtype=torch.float64, device=x.device).view(1, 3, 1, 1)
    return ((v / 255.0 - mean) / std).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * 3 * s["H"] * s["W"]
    return {"bytes": n * (1 + 4) + 12 * s["B"], "flops": 12 * n}
