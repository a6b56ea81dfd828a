"""CLIP image preprocessing tail (ToTensor + Normalize) on decoded uint8 NCHW RGB images:
y[b, c, h, w] = (x[b, c, h, w] / 255 - mean[c]) / std[c], written as fp16 pixel_values."""
import torch

META = {
    "name": "image_normalize_u8_to_fp16",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 2, "H": 20, "W": 24},
        "ragged": {"B": 3, "H": 17, "W": 29},
        "large": {"B": 256, "H": 336, "W": 336},
    },
    "baseline_notes": "Programs = vector cores striding over (plane, 8192-pixel block) tasks; the uint8 pixels are "
                      "loaded as bytes and converted to fp32 in UB, the channel's 1 / (255 std) and mean / std are "
                      "scalars per task; one fp16 store.",
    "deterministic": True,
}

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images uint8 [B, 3, H, W] (decoded, resized, center-cropped), mean fp32 [3], std fp32 [3]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    img = torch.randint(0, 256, (s["B"], 3, s["H"], s["W"]), generator=g, dtype=torch.uint8)
    img[0, :, :2, :] = 255  # saturated and black rows, the range ends
    img[-1, :, -2:, :] = 0
    mean = torch.tensor(CLIP_MEAN, dtype=torch.float32)
    std = torch.tensor(CLIP_STD, dtype=torch.float32)
    return img.to(device), mean.to(device), std.to(device)


def reference(img: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    x = img.double() / 255.0
    y = (x - mean.double()[None, :, None, None]) / std.double()[None, :, None, None]
    return y.to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * 3 * s["H"] * s["W"]
    return {"bytes": n * (1 + 2) + 24, "flops": 2 * n}
