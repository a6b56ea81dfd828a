"""Rotated-box IoU matrix (mmcv box_iou_rotated, aligned=False), as MMRotate's RBboxOverlaps2D
computes it for RotatedMaxIoUAssigner: every anchor against every ground-truth box.

Boxes are (cx, cy, w, h, angle) with the angle in radians; IoU = area(A n B) / (area A + area B -
area(A n B)). The anchors are Rotated RetinaNet's (strides 8..128, 3 scales x 3 ratios, angle 0)
over a square image; the ground truths are DOTA-like small oriented objects that come in groups
(a parking lot, a harbour) and are listed group by group, as annotators label them.
"""
import math

import torch

META = {
    "name": "rotated_box_iou",
    "level": 2,
    "category": "detection",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"IMG": 48, "LEVELS": 2, "G": 8},
        "ragged": {"IMG": 56, "LEVELS": 2, "G": 11},
        "large": {"IMG": 1024, "LEVELS": 5, "G": 128},
    },
    "baseline_notes": "40 programs loop over 32-anchor tiles; per tile the anchor corners are built once, "
                      "then for each 16-box tile of ground truths a [32, 16] pair tile is tested with the "
                      "circumscribed circles and, only if some pair can overlap, each box's four edges "
                      "are clipped against the other box (Cyrus-Beck) and the intersection area summed "
                      "by Green's theorem; tiles with no candidate pair store zeros; fp32; no autotune.",
    "deterministic": True,
}
OCTAVE_BASE_SCALE, SCALES_PER_OCTAVE, RATIOS = 4, 3, (1.0, 0.5, 2.0)


def retinanet_anchors(img: int, levels: int) -> torch.Tensor:
    """mmdet AnchorGenerator order: level, then position (row-major), then ratio x scale; angle 0."""
    out = []
    scales = torch.tensor([OCTAVE_BASE_SCALE * 2 ** (i / SCALES_PER_OCTAVE) for i in range(SCALES_PER_OCTAVE)],
                          dtype=torch.float64)
    h_ratios = torch.tensor(RATIOS, dtype=torch.float64).sqrt()
    for lvl in range(levels):
        stride = 8 * 2 ** lvl
        ws = (stride / h_ratios[:, None] * scales[None, :]).reshape(-1)
        hs = (stride * h_ratios[:, None] * scales[None, :]).reshape(-1)
        n = math.ceil(img / stride)
        ys, xs = torch.meshgrid(torch.arange(n, dtype=torch.float64) * stride,
                                torch.arange(n, dtype=torch.float64) * stride, indexing="ij")
        ctr = torch.stack([xs.reshape(-1), ys.reshape(-1)], 1)
        a = torch.zeros(ctr.shape[0], ws.numel(), 5, dtype=torch.float64)
        a[..., 0], a[..., 1] = ctr[:, None, 0], ctr[:, None, 1]
        a[..., 2], a[..., 3] = ws, hs
        out.append(a.reshape(-1, 5))
    return torch.cat(out)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """anchors [A, 5], gt boxes [G, 5] (cx, cy, w, h, angle)."""
    s = META["sizes"][size]
    img, G = s["IMG"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    anchors = retinanet_anchors(img, s["LEVELS"])
    spread = 160.0 * min(1.0, img / 256.0)
    groups = max(1, G // 16)
    centre = torch.rand(groups, 2, generator=g, dtype=torch.float64) * img * 0.8 + img * 0.1
    member = torch.arange(G) * groups // G
    xy = centre[member] + (torch.rand(G, 2, generator=g, dtype=torch.float64) - 0.5) * spread
    wh = torch.stack([12 + 48 * torch.rand(G, generator=g, dtype=torch.float64),
                      8 + 22 * torch.rand(G, generator=g, dtype=torch.float64)], 1)
    angle = (torch.rand(G, generator=g, dtype=torch.float64) - 0.5) * math.pi
    gts = torch.cat([xy, wh, angle[:, None]], 1)
    return anchors.to(dt).to(device), gts.to(dt).to(device)


def _corners(b: torch.Tensor):
    c, s = torch.cos(b[..., 4]), torch.sin(b[..., 4])
    ux, uy = 0.5 * b[..., 2] * c, 0.5 * b[..., 2] * s
    vx, vy = -0.5 * b[..., 3] * s, 0.5 * b[..., 3] * c
    x, y = b[..., 0], b[..., 1]
    return [(x - ux - vx, y - uy - vy), (x + ux - vx, y + uy - vy),
            (x + ux + vx, y + uy + vy), (x - ux + vx, y - uy + vy)]


def _inside_part(P, Q):
    """Green's-theorem contribution of polygon P's edges clipped to convex polygon Q (both CCW)."""
    total = 0.0
    for i in range(4):
        (px, py), (qx, qy) = P[i], P[(i + 1) % 4]
        dx, dy = qx - px, qy - py
        t0 = torch.zeros_like(px)
        t1 = t0 + 1.0
        for j in range(4):
            (ox, oy), (nx, ny) = Q[j], Q[(j + 1) % 4]
            ex, ey = nx - ox, ny - oy
            f0 = ex * (py - oy) - ey * (px - ox)
            f1 = ex * (qy - oy) - ey * (qx - ox)
            entering, leaving = (f0 < 0) & (f1 >= 0), (f0 >= 0) & (f1 < 0)
            tc = f0 / torch.where(f0 == f1, torch.ones_like(f0), f0 - f1)
            t0 = torch.where(entering, torch.maximum(t0, tc), t0)
            t1 = torch.where(leaving, torch.minimum(t1, tc), t1)
            t1 = torch.where((f0 < 0) & (f1 < 0), torch.full_like(t1, -1.0), t1)
        total = total + torch.where(t1 > t0, (t1 - t0) * (px * dy - py * dx), torch.zeros_like(t0))
    return total


def reference(anchors: torch.Tensor, gts: torch.Tensor) -> torch.Tensor:
    a, g = anchors.double(), gts.double()
    out = torch.empty(a.shape[0], g.shape[0], dtype=torch.float64, device=a.device)
    for start in range(0, a.shape[0], 8192):
        ac = a[start:start + 8192, None, :].clone().expand(-1, g.shape[0], -1).clone()
        gc = g[None, :, :].expand(ac.shape[0], -1, -1).clone()
        ac[..., :2] -= gc[..., :2]          # coordinates relative to the ground-truth centre
        gc[..., :2] = 0.0
        A, B = _corners(ac), _corners(gc)
        inter = 0.5 * (_inside_part(A, B) + _inside_part(B, A))
        union = ac[..., 2] * ac[..., 3] + gc[..., 2] * gc[..., 3] - inter
        out[start:start + 8192] = inter / union
    return out.to(anchors.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    A = sum(9 * math.ceil(s["IMG"] / (8 * 2 ** l)) ** 2 for l in range(s["LEVELS"]))
    return {"bytes": 4 * (5 * A + 5 * s["G"] + A * s["G"]), "flops": 400 * A * s["G"]}
