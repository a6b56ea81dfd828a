"""Per-pixel cross-entropy of semantic-segmentation logits in NCHW layout (the class axis is dim 1):
F.cross_entropy(logits, labels, ignore_index=255, reduction='none') -> [B, H, W] fp32."""
import torch

META = {
    "name": "segmentation_cross_entropy",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 19, "H": 9, "W": 13},
        "ragged": {"B": 3, "C": 21, "H": 33, "W": 47},
        "large": {"B": 8, "C": 19, "H": 512, "W": 1024},
    },
    "baseline_notes": "One program per (image, 128-pixel block): a [32, 128] tile with the classes on axis 0 "
                      "(stride H * W) and the pixels on axis 1 (contiguous), so every class row is one coalesced "
                      "512-byte load; max, sum of exp and the target logit reduced along axis 0.",
    "deterministic": True,
}

IGNORE_INDEX = 255


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, C, H, W] (decode-head output upsampled to the crop), labels [B, H, W] int64 with ~5% 255
    (void pixels)."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, C, H, W, generator=g) * 3.0
    labels = torch.randint(0, C, (B, H, W), generator=g)
    labels[torch.rand(B, H, W, generator=g) < 0.05] = IGNORE_INDEX
    return logits.to(dt).to(device), labels.to(device)


def reference(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    loss = torch.nn.functional.cross_entropy(logits.double(), labels, ignore_index=IGNORE_INDEX, reduction="none")
    return loss.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    P = s["B"] * s["H"] * s["W"]
    return {"bytes": item * P * s["C"] + 8 * P + 4 * P, "flops": 4 * P * s["C"]}
