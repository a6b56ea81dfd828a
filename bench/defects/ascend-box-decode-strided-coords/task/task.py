"""Box decoding of a detector's regression deltas (torchvision BoxCoder.decode_single / Detectron2
Box2BoxTransform.apply_deltas): from anchors (x1, y1, x2, y2) and deltas (dx, dy, dw, dh), scaled by
the weights and with dw, dh clamped at log(1000 / 16), the predicted boxes (x1, y1, x2, y2)."""
import math

import torch

META = {
    "name": "box_coder_decode",
    "level": 1,
    "category": "vision",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 1500},
        "ragged": {"N": 4001},
        "large": {"N": 537138},
    },
    "baseline_notes": "Persistent grid of 40 programs (910B vector cores), 1,024 boxes per step: deltas and anchors "
                      "are loaded as contiguous [1024, 4] tiles (16 KB each), split into coordinates on chip, "
                      "and the result is joined back into a [1024, 4] tile and stored contiguously.",
    "deterministic": True,
}

WEIGHTS = (1.0, 1.0, 1.0, 1.0)
CLIP = math.log(1000.0 / 16)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """deltas [N, 4] float32 (RPN regression output, a few large dw/dh that hit the clamp), anchors [N, 4]
    float32 (3 aspect ratios, sizes 32..512, over an 800 x 1333 image), the 4 weights and the clamp."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    deltas = torch.randn(n, 4, generator=g) * torch.tensor([0.1, 0.1, 0.2, 0.2])
    deltas[::97, 2:] += 6.0
    cx = torch.rand(n, generator=g) * 1333.0
    cy = torch.rand(n, generator=g) * 800.0
    size_ = 32.0 * 2.0 ** torch.randint(0, 5, (n,), generator=g).float()
    ratio = torch.tensor([0.5, 1.0, 2.0])[torch.randint(0, 3, (n,), generator=g)]
    w = size_ / ratio.sqrt()
    h = size_ * ratio.sqrt()
    anchors = torch.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], dim=1)
    return deltas.float().contiguous().to(device), anchors.float().contiguous().to(device), WEIGHTS, CLIP


def reference(deltas: torch.Tensor, anchors: torch.Tensor, weights: tuple, clip: float) -> torch.Tensor:
    a = anchors.double()
    d = deltas.double()
    wx, wy, ww, wh = weights
    widths = a[:, 2] - a[:, 0]
    heights = a[:, 3] - a[:, 1]
    ctr_x = a[:, 0] + 0.5 * widths
    ctr_y = a[:, 1] + 0.5 * heights
    dx, dy = d[:, 0] / wx, d[:, 1] / wy
    dw = (d[:, 2] / ww).clamp(max=clip)
    dh = (d[:, 3] / wh).clamp(max=clip)
    px = dx * widths + ctr_x
    py = dy * heights + ctr_y
    pw = torch.exp(dw) * widths
    ph = torch.exp(dh) * heights
    out = torch.stack([px - 0.5 * pw, py - 0.5 * ph, px + 0.5 * pw, py + 0.5 * ph], dim=1)
    return out.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 3 * 16 * n, "flops": 24 * n}
