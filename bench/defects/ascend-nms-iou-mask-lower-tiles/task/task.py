"""Suppression mask of greedy NMS (torchvision nms / batched_nms, the mask stage of nms_kernel):
boxes sorted by descending score, mask[i, j] = 1 when j > i and IoU(box_i, box_j) > iou_threshold.
Output uint8 [N, N]; the greedy keep-loop then walks the rows in order."""
import torch

META = {
    "name": "nms_suppression_mask",
    "level": 2,
    "category": "vision",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 200, "thr": 0.7},
        "ragged": {"N": 333, "thr": 0.7},
        "large": {"N": 8192, "thr": 0.7},
    },
    "baseline_notes": "Persistent grid of 40 programs (910B vector cores) over 32 x 128 tiles of the mask; tiles "
                      "wholly on or below the diagonal are stored as zeros without loading boxes or computing IoU. "
                      "IoU in fp32 in torchvision's order (inter / (area_i + area_j - inter)).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """boxes [N, 4] float32 (x1, y1, x2, y2) of RPN proposals in an 800 x 1333 image, already sorted by
    score (clustered around a few objects so many pairs overlap), and the IoU threshold."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    n = s["N"]
    n_obj = max(4, n // 40)
    obj_c = torch.rand(n_obj, 2, generator=g) * torch.tensor([1333.0, 800.0])
    obj_wh = torch.exp(torch.rand(n_obj, 2, generator=g) * 3.5) * 8.0
    pick = torch.randint(0, n_obj, (n,), generator=g)
    c = obj_c[pick] + torch.randn(n, 2, generator=g) * obj_wh[pick] * 0.15
    wh = obj_wh[pick] * torch.exp(torch.randn(n, 2, generator=g) * 0.2)
    boxes = torch.cat([c - wh / 2, c + wh / 2], dim=1).to(torch.float32)
    return boxes.contiguous().to(device), s["thr"]


def reference(boxes: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    b = boxes.float()
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    w = (torch.minimum(b[:, None, 2], b[None, :, 2]) - torch.maximum(b[:, None, 0], b[None, :, 0])).clamp(min=0)
    h = (torch.minimum(b[:, None, 3], b[None, :, 3]) - torch.maximum(b[:, None, 1], b[None, :, 1])).clamp(min=0)
    inter = w * h
    iou = inter / (area[:, None] + area[None, :] - inter)
    n = b.shape[0]
    upper = torch.arange(n, device=b.device)[None, :] > torch.arange(n, device=b.device)[:, None]
    return ((iou > iou_threshold) & upper).to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 16 * n + n * n, "flops": 12 * n * (n - 1) // 2}
