"""Mirror + normalise + HWC->CHW of a decoded uint8 image batch (DALI crop_mirror_normalize with output_layout="CHW", dtype FLOAT16): out[n, c, h, w] = (img[n, h, w', c] - mean[c]) / std[c], w' = W - 1 - w for mirrored samples."""
import torch

META = {
    "name": "mirror_normalize_hwc_to_chw",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 2, "H": 5, "W": 37},
        "ragged": {"N": 3, "H": 7, "W": 301},
        "large": {"N": 256, "H": 224, "W": 224},
    },
    "baseline_notes": "Grid (256-pixel block, row, image) over the HWC uint8 input as given: one [256, 4] (pixel, channel) "
                      "tile per program (channel 3 masked), the mirrored column read in reverse, per-channel mean and "
                      "std as [4] vectors, fp16 stored to the three CHW planes; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images [N, H, W, 3] uint8 (decoder output), mirror [N] int32 (coin flips), mean [3] and std [3] fp32 in 0..255 units."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    images = torch.randint(0, 256, (s["N"], s["H"], s["W"], 3), generator=g, dtype=torch.uint8)
    mirror = torch.randint(0, 2, (s["N"],), generator=g, dtype=torch.int32)
    mean = torch.tensor([0.485, 0.456, 0.406]) * 255
    std = torch.tensor([0.229, 0.224, 0.225]) * 255
    return images.to(device), mirror.to(device), mean.to(device), std.to(device)


def reference(images: torch.Tensor, mirror: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    x = torch.where(mirror.bool()[:, None, None, None], images.flip(2), images).float()
    y = (x - mean) / std
    return y.permute(0, 3, 1, 2).contiguous().to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["H"] * s["W"] * 3
    return {"bytes": n + 2 * n, "flops": 2 * n}
