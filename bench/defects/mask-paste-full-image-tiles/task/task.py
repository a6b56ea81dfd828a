"""Mask R-CNN mask pasting (detectron2 paste_masks_in_image, GPU path): every instance's M x M mask
probabilities are resampled with F.grid_sample (bilinear, zero padding, align_corners=False) from its box onto
the whole image and thresholded, giving a bool mask [R, img_h, img_w] per detection."""
import torch

META = {
    "name": "paste_masks_in_image",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"R": 6, "H": 40, "W": 300, "M": 28},
        "ragged": {"R": 7, "H": 53, "W": 419, "M": 28},
        "large": {"R": 100, "H": 1024, "W": 2048, "M": 28},
    },
    "baseline_notes": "Grid (256-pixel column tile, 32-row tile, instance), 8 warps: each program maps its pixel "
                      "centres into the box's mask coordinates; a tile whose source coordinates all fall at or "
                      "beyond the mask's zero-padded border stores the threshold of 0 without sampling, the others "
                      "gather the four bilinear corners and store the thresholded value.",
    "deterministic": False,
}

CHECK_BAND = 1e-4  # grid_sample rounding may flip pixels this close to the threshold


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """masks [R, M, M] (sigmoid of the mask head's logits for the predicted class), boxes [R, 4]
    (x0, y0, x1, y1 in pixels, clipped to the image), the image height and width and the 0.5 threshold."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    R, H, W, M = s["R"], s["H"], s["W"], s["M"]
    masks = torch.sigmoid(torch.randn(R, M, M, generator=g) * 3.0 + 1.0)
    lo, hi = torch.log(torch.tensor(max(4.0, W / 128))), torch.log(torch.tensor(W * 0.3))
    bw = torch.exp(lo + (hi - lo) * torch.rand(R, generator=g))
    bh = (bw * torch.exp(torch.randn(R, generator=g) * 0.4)).clamp(4.0, H * 0.9)
    cx = torch.rand(R, generator=g) * W
    cy = torch.rand(R, generator=g) * H
    x0 = (cx - bw / 2).clamp(0.0, W - 4.0)
    y0 = (cy - bh / 2).clamp(0.0, H - 4.0)
    x1 = torch.maximum((cx + bw / 2).clamp(max=float(W)), x0 + 2.0)
    y1 = torch.maximum((cy + bh / 2).clamp(max=float(H)), y0 + 2.0)
    boxes = torch.stack([x0, y0, x1, y1], dim=1)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return masks.to(dt).to(device), boxes.to(dt).to(device), H, W, 0.5


def _pasted_probs(masks: torch.Tensor, boxes: torch.Tensor, img_h: int, img_w: int) -> torch.Tensor:
    """detectron2 _do_paste_mask(skip_empty=False) in chunks of 16 instances."""
    out = []
    for lo in range(0, masks.shape[0], 16):
        m = masks[lo:lo + 16, None].float()
        x0, y0, x1, y1 = torch.split(boxes[lo:lo + 16].float(), 1, dim=1)
        img_y = torch.arange(0, img_h, device=masks.device, dtype=torch.float32) + 0.5
        img_x = torch.arange(0, img_w, device=masks.device, dtype=torch.float32) + 0.5
        img_y = (img_y - y0) / (y1 - y0) * 2 - 1
        img_x = (img_x - x0) / (x1 - x0) * 2 - 1
        n = m.shape[0]
        gx = img_x[:, None, :].expand(n, img_h, img_w)
        gy = img_y[:, :, None].expand(n, img_h, img_w)
        grid = torch.stack([gx, gy], dim=3)
        out.append(torch.nn.functional.grid_sample(m, grid, align_corners=False)[:, 0])
    return torch.cat(out)


def reference(masks: torch.Tensor, boxes: torch.Tensor, img_h: int, img_w: int, threshold: float) -> torch.Tensor:
    return _pasted_probs(masks, boxes, img_h, img_w) >= threshold


def check(inputs: tuple, output: torch.Tensor) -> str | None:
    """Equal to the thresholded reference, except pixels within CHECK_BAND of the threshold."""
    masks, boxes, img_h, img_w, threshold = inputs
    shape = [masks.shape[0], img_h, img_w]
    if output.dtype != torch.bool or list(output.shape) != shape:
        return f"output is {output.dtype}{list(output.shape)}, expected torch.bool{shape}"
    probs = _pasted_probs(masks, boxes, img_h, img_w)
    wrong = (output != (probs >= threshold)) & ((probs - threshold).abs() >= CHECK_BAND)
    if wrong.any():
        return f"{int(wrong.sum())} pixels differ from the thresholded pasted masks"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["R"] * (4 * s["M"] * s["M"] + 16 + s["H"] * s["W"]), "flops": 8 * s["R"] * s["H"] * s["W"]}
