"""Rotated-box IoU matrix (mmcv box_iou_rotated): Cyrus-Beck edge clipping, Green's-theorem area."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # AI vector cores of an Atlas A2 (910B4)


@triton.jit
def _cut(t0, t1, ox, oy, ex, ey, px, py, dx, dy):
    # keep the part of p + t * d that lies left of the line o + s * e
    f = ex * (py - oy) - ey * (px - ox)
    fd = ex * dy - ey * dx
    tc = -f / tl.where(fd == 0.0, 1.0, fd)
    t0 = tl.where(fd > 0.0, tl.maximum(t0, tc), t0)
    t1 = tl.where(fd < 0.0, tl.minimum(t1, tc), t1)
    t1 = tl.where((fd == 0.0) & (f < 0.0), -1.0, t1)
    return t0, t1


@triton.jit
def _edge_inside(px, py, qx, qy, x0, y0, x1, y1, x2, y2, x3, y3, zero):
    dx = qx - px
    dy = qy - py
    t0 = zero
    t1 = zero + 1.0
    t0, t1 = _cut(t0, t1, x0, y0, x1 - x0, y1 - y0, px, py, dx, dy)
    t0, t1 = _cut(t0, t1, x1, y1, x2 - x1, y2 - y1, px, py, dx, dy)
    t0, t1 = _cut(t0, t1, x2, y2, x3 - x2, y3 - y2, px, py, dx, dy)
    t0, t1 = _cut(t0, t1, x3, y3, x0 - x3, y0 - y3, px, py, dx, dy)
    return tl.where(t1 > t0, (t1 - t0) * (px * dy - py * dx), 0.0)


@triton.jit
def _intersection(ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3, bx0, by0, bx1, by1, bx2, by2, bx3, by3, zero):
    s = _edge_inside(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1, bx2, by2, bx3, by3, zero)
    s += _edge_inside(ax1, ay1, ax2, ay2, bx0, by0, bx1, by1, bx2, by2, bx3, by3, zero)
    s += _edge_inside(ax2, ay2, ax3, ay3, bx0, by0, bx1, by1, bx2, by2, bx3, by3, zero)
    s += _edge_inside(ax3, ay3, ax0, ay0, bx0, by0, bx1, by1, bx2, by2, bx3, by3, zero)
    s += _edge_inside(bx0, by0, bx1, by1, ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3, zero)
    s += _edge_inside(bx1, by1, bx2, by2, ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3, zero)
    s += _edge_inside(bx2, by2, bx3, by3, ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3, zero)
    s += _edge_inside(bx3, by3, bx0, by0, ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3, zero)
    return 0.5 * s


@triton.jit
def _box_iou_rotated(anchors, gts, ious, A, G, n_prog, BLOCK_A: tl.constexpr, BLOCK_G: tl.constexpr):
    for a0 in range(tl.program_id(0) * BLOCK_A, A, n_prog * BLOCK_A):
        ra = a0 + tl.arange(0, BLOCK_A)
        am = ra < A
        acx = tl.load(anchors + ra * 5 + 0, mask=am, other=0.0)[:, None]
        acy = tl.load(anchors + ra * 5 + 1, mask=am, other=0.0)[:, None]
        aw = tl.load(anchors + ra * 5 + 2, mask=am, other=1.0)[:, None]
        ah = tl.load(anchors + ra * 5 + 3, mask=am, other=1.0)[:, None]
        at = tl.load(anchors + ra * 5 + 4, mask=am, other=0.0)[:, None]
        aux, auy = 0.5 * aw * tl.cos(at), 0.5 * aw * tl.sin(at)
        avx, avy = -0.5 * ah * tl.sin(at), 0.5 * ah * tl.cos(at)
        a_rad = 0.5 * tl.sqrt(aw * aw + ah * ah)
        for g0 in range(0, G, BLOCK_G):
            rg = g0 + tl.arange(0, BLOCK_G)
            gm = rg < G
            gcx = tl.load(gts + rg * 5 + 0, mask=gm, other=0.0)[None, :]
            gcy = tl.load(gts + rg * 5 + 1, mask=gm, other=0.0)[None, :]
            gw = tl.load(gts + rg * 5 + 2, mask=gm, other=1.0)[None, :]
            gh = tl.load(gts + rg * 5 + 3, mask=gm, other=1.0)[None, :]
            gt = tl.load(gts + rg * 5 + 4, mask=gm, other=0.0)[None, :]
            cx = acx - gcx
            cy = acy - gcy
            reach = a_rad + 0.5 * tl.sqrt(gw * gw + gh * gh)
            near = (cx * cx + cy * cy < reach * reach) & am[:, None] & gm[None, :]
            gux, guy = 0.5 * gw * tl.cos(gt), 0.5 * gw * tl.sin(gt)
            gvx, gvy = -0.5 * gh * tl.sin(gt), 0.5 * gh * tl.cos(gt)
            inter = _intersection(cx - aux - avx, cy - auy - avy, cx + aux - avx, cy + auy - avy,
                                  cx + aux + avx, cy + auy + avy, cx - aux + avx, cy - auy + avy,
                                  -gux - gvx, -guy - gvy, gux - gvx, guy - gvy,
                                  gux + gvx, guy + gvy, -gux + gvx, -guy + gvy, cx * 0.0)
            iou = inter / tl.maximum(aw * ah + gw * gh - inter, 1e-6)
            tl.store(ious + ra[:, None] * G + rg[None, :], tl.where(near, iou, 0.0),
                     mask=am[:, None] & gm[None, :])


def run(anchors: torch.Tensor, gts: torch.Tensor) -> torch.Tensor:
    A, G = anchors.shape[0], gts.shape[0]
    ious = torch.empty(A, G, device=anchors.device, dtype=torch.float32)
    if A == 0 or G == 0:
        return ious
    grid = min(triton.cdiv(A, 32), NUM_CORES)
    _box_iou_rotated[(grid,)](anchors, gts, ious, A, G, grid, BLOCK_A=32, BLOCK_G=16)
    return ious
