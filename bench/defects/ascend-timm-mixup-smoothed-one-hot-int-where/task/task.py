"""Mixup soft targets with label smoothing (timm.data.mixup.mixup_target).

off = smoothing / C, on = 1 - smoothing + off;
target[b, c] = lam * (on if c == y[b] else off) + (1 - lam) * (on if c == y[B-1-b] else off),
i.e. the smoothed one-hot of the labels mixed with the smoothed one-hot of the batch-flipped labels.
"""
import torch

META = {
    "name": "mixup_smoothed_one_hot",
    "level": 2,
    "category": "encoding",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 6, "C": 40},
        "ragged": {"B": 7, "C": 77},
        "large": {"B": 1024, "C": 10000},
    },
    "baseline_notes": "40 programs (vector cores), each looping over its rows and over 2,048-column tiles of the "
                      "row; the column index is compared with the two labels in fp32 and the mixed on/off value "
                      "stored; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """labels [B] int32 in [0, C), lam (float), smoothing (float), num_classes (int)."""
    s = META["sizes"][size]
    B, C = s["B"], s["C"]
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, C, (B,), generator=g, dtype=torch.int32)
    lam = float(torch.rand((), generator=g))
    return labels.to(device), lam, 0.1, C


def reference(labels: torch.Tensor, lam: float, smoothing: float, num_classes: int) -> torch.Tensor:
    off = smoothing / num_classes
    on = 1.0 - smoothing + off
    y = labels.long()
    y1 = torch.full((y.shape[0], num_classes), off, dtype=torch.float64, device=y.device)
    y1.scatter_(1, y[:, None], on)
    y2 = torch.full_like(y1, off)
    y2.scatter_(1, y.flip(0)[:, None], on)
    return (y1 * lam + y2 * (1.0 - lam)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["C"] + 8 * s["B"], "flops": 4 * s["B"] * s["C"]}
