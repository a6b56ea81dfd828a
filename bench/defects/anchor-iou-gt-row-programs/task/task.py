"""Pairwise IoU between ground-truth boxes and anchors (torchvision.ops.box_iou(gt_boxes, anchors)), the match-quality matrix of anchor matching."""
import torch

META = {
    "name": "anchor_gt_box_iou",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"G": 5, "A": 3000},
        "ragged": {"G": 7, "A": 2999},
        "large": {"G": 64, "A": 268569},
    },
    "baseline_notes": "2-D grid (gt box, block of 1024 anchors): each program loads its gt box once and writes 1024 IoUs "
                      "of one match-quality row; 4 warps.",
    "deterministic": True,
}


def _boxes(n: int, g: torch.Generator, img_h: float = 800.0, img_w: float = 1333.0) -> torch.Tensor:
    cx = torch.rand(n, generator=g) * img_w
    cy = torch.rand(n, generator=g) * img_h
    w = torch.exp(torch.rand(n, generator=g) * 5.0) * 4.0
    h = w * torch.exp(torch.randn(n, generator=g) * 0.5)
    return torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gt_boxes [G, 4] and anchors [A, 4], (x1, y1, x2, y2) in pixels of an 800 x 1333 image."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gt = _boxes(s["G"], g)
    anchors = _boxes(s["A"], g)
    # a few anchors that coincide with a gt box, as the matcher's best matches
    k = min(s["G"], s["A"])
    anchors[:k] = gt[:k] + torch.randn(k, 4, generator=g)
    return gt.to(dt).to(device), anchors.to(dt).to(device)


def reference(gt: torch.Tensor, anchors: torch.Tensor) -> torch.Tensor:
    area1 = (gt[:, 2] - gt[:, 0]) * (gt[:, 3] - gt[:, 1])
    area2 = (anchors[:, 2] - anchors[:, 0]) * (anchors[:, 3] - anchors[:, 1])
    lt = torch.max(gt[:, None, :2], anchors[None, :, :2])
    rb = torch.min(gt[:, None, 2:], anchors[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2[None, :] - inter)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * (s["G"] + s["A"]) + 4 * s["G"] * s["A"], "flops": 14 * s["G"] * s["A"]}
