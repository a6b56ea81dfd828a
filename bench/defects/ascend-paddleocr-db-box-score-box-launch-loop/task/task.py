"""DB-net box scoring (PaddleOCR DBPostProcess.box_score_fast, score_mode='fast').

For every candidate quad the score is the mean of the probability map over the pixels of the
quad's clipped bounding rectangle whose centre (x + 0.5, y + 0.5) lies inside or on the quad.
The rectangle is PaddleOCR's: xmin = clip(floor(min x), 0, W - 1), xmax = clip(ceil(max x), 0, W - 1),
the same for y, both ends included. Quad corners are on a quarter-pixel grid, so the
inside test is exact in float32.
"""
import math

import torch

META = {
    "name": "db_box_score",
    "level": 2,
    "category": "detection-postprocess",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 64, "W": 96, "N": 6},
        "ragged": {"H": 77, "W": 131, "N": 9},
        "large": {"H": 960, "W": 736, "N": 1000},
    },
    "baseline_notes": "One launch over min(N, 40) programs that loop over the boxes; per box the clipped "
                      "bounding rectangle is walked in [16, 128] tiles of the probability map (contiguous "
                      "rows), the four edge cross products select the pixels inside the quad, masked "
                      "sum and count in fp32; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred [H, W] probability map, boxes [N, 4, 2] (x, y) corners tl, tr, br, bl of rotated text-line quads."""
    s = META["sizes"][size]
    H, W, N = s["H"], s["W"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pred = torch.sigmoid(3.0 * torch.randn(H, W, generator=g))
    scale = min(H, W) / 960.0
    width = (40 + 440 * torch.rand(N, generator=g) ** 2) * max(scale, 0.08)
    height = (12 + 36 * torch.rand(N, generator=g)) * max(scale, 0.25)
    cx = torch.rand(N, generator=g) * W
    cy = torch.rand(N, generator=g) * H
    theta = (torch.rand(N, generator=g) - 0.5) * (math.pi / 6)
    c, sn = torch.cos(theta), torch.sin(theta)
    ux, uy = 0.5 * width * c, 0.5 * width * sn
    vx, vy = -0.5 * height * sn, 0.5 * height * c
    xs = torch.stack([cx - ux - vx, cx + ux - vx, cx + ux + vx, cx - ux + vx], 1)
    ys = torch.stack([cy - uy - vy, cy + uy - vy, cy + uy + vy, cy - uy + vy], 1)
    boxes = torch.stack([xs, ys], 2)
    boxes = torch.round(boxes * 4.0) / 4.0  # quarter-pixel grid
    return pred.to(dt).to(device), boxes.to(dt).to(device)


def reference(pred: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
    H, W = pred.shape
    p = pred.double()
    out = torch.empty(boxes.shape[0], dtype=torch.float64, device=pred.device)
    for i, q in enumerate(boxes.double()):
        xs, ys = q[:, 0], q[:, 1]
        xmin = int(min(max(math.floor(xs.min().item()), 0), W - 1))
        xmax = int(min(max(math.ceil(xs.max().item()), 0), W - 1))
        ymin = int(min(max(math.floor(ys.min().item()), 0), H - 1))
        ymax = int(min(max(math.ceil(ys.max().item()), 0), H - 1))
        py = torch.arange(ymin, ymax + 1, device=pred.device, dtype=torch.float64)[:, None] + 0.5
        px = torch.arange(xmin, xmax + 1, device=pred.device, dtype=torch.float64)[None, :] + 0.5
        crosses = []
        for k in range(4):
            ax, ay, bx, by = xs[k], ys[k], xs[(k + 1) % 4], ys[(k + 1) % 4]
            crosses.append((bx - ax) * (py - ay) - (by - ay) * (px - ax))
        e = torch.stack(torch.broadcast_tensors(*crosses))
        inside = (e >= 0).all(0) | (e <= 0).all(0)
        region = p[ymin:ymax + 1, xmin:xmax + 1]
        n = inside.sum()
        out[i] = (region * inside).sum() / n if n > 0 else 0.0
    return out.to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    # mean text-line quad at the large size: about 190 x 30 pixels
    area = 6000 * (min(s["H"], s["W"]) / 960.0) ** 2
    return {"bytes": int(4 * s["N"] * area) + 36 * s["N"], "flops": int(12 * s["N"] * area)}
