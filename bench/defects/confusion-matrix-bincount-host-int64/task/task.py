"""Segmentation confusion matrix (torchmetrics / mmseg: torch.bincount(target * C + pred, minlength=C*C).view(C, C))."""
import torch

META = {
    "name": "confusion_matrix_bincount",
    "level": 2,
    "category": "reduction",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"P": 5000, "C": 5},
        "ragged": {"P": 7777, "C": 19},
        "large": {"P": 16777216, "C": 19},
    },
    "baseline_notes": "Each program folds 8 blocks of 2,048 pixels into a private tl.histogram of the target * C + pred "
                      "codes (int32 loads), then adds its C*C counts to the int64 matrix with one atomic per bin.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred and target class maps [P] (argmax of the logits and the label map, flattened), and C."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    target = torch.randint(0, s["C"], (s["P"],), generator=g)
    noise = torch.randint(0, s["C"], (s["P"],), generator=g)
    pred = torch.where(torch.rand(s["P"], generator=g) < 0.8, target, noise)
    return pred.to(dt).to(device), target.to(dt).to(device), s["C"]


def reference(pred: torch.Tensor, target: torch.Tensor, num_classes: int) -> torch.Tensor:
    codes = target.long() * num_classes + pred.long()
    return torch.bincount(codes, minlength=num_classes * num_classes).view(num_classes, num_classes)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["P"] + 8 * s["C"] * s["C"], "flops": 2 * s["P"]}
