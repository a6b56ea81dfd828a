"""MODPATH-style particle location on a variable-spacing MODFLOW grid and Pollock velocity interpolation."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _locate_velocity(xp, yp, kp, zlp, xedge, yedge, qx, qy, qz, thick, poro, node_out, vel_out,
                     n, nrow, ncol, col_steps, row_steps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(xp + offs, mask=ok, other=0.0)
    y = tl.load(yp + offs, mask=ok, other=0.0)
    k = tl.load(kp + offs, mask=ok, other=0)
    zl = tl.load(zlp + offs, mask=ok, other=0.0)

    # column and row: bisection over the sorted cell edges, xedge[j] <= x < xedge[j + 1]
    j = tl.zeros([BLOCK], dtype=tl.int32)
    hi = j + ncol
    for _ in range(col_steps):
        mid = (j + hi) >> 1
        right = x >= tl.load(xedge + mid)
        j = tl.where(right, mid, j)
        hi = tl.where(right, hi, mid)
    i = tl.zeros([BLOCK], dtype=tl.int32)
    hi = i + nrow
    for _ in range(row_steps):
        mid = (i + hi) >> 1
        below = y >= tl.load(yedge + mid)
        i = tl.where(below, mid, i)
        hi = tl.where(below, hi, mid)

    x0 = tl.load(xedge + j, mask=ok, other=0.0)
    x1 = tl.load(xedge + j + 1, mask=ok, other=1.0)
    y0 = tl.load(yedge + i, mask=ok, other=0.0)
    y1 = tl.load(yedge + i + 1, mask=ok, other=1.0)
    dx = x1 - x0
    dy = y1 - y0
    xl = (x - x0) / dx
    yl = (y - y0) / dy

    cell = (k * nrow + i) * ncol + j
    layer_cells = nrow * ncol
    b = tl.load(thick + cell, mask=ok, other=1.0)
    por = tl.load(poro + cell, mask=ok, other=1.0)
    fx = (k * nrow + i) * (ncol + 1) + j
    qw = tl.load(qx + fx, mask=ok, other=0.0)
    qe = tl.load(qx + fx + 1, mask=ok, other=0.0)
    fy = (k * (nrow + 1) + i) * ncol + j
    qn = tl.load(qy + fy, mask=ok, other=0.0)
    qs = tl.load(qy + fy + ncol, mask=ok, other=0.0)
    qt = tl.load(qz + cell, mask=ok, other=0.0)
    qb = tl.load(qz + cell + layer_cells, mask=ok, other=0.0)

    vx = ((1.0 - xl) * qw + xl * qe) / (por * dy * b)
    vy = ((1.0 - yl) * qn + yl * qs) / (por * dx * b)
    vz = ((1.0 - zl) * qb + zl * qt) / (por * dx * dy)
    tl.store(node_out + offs, cell, mask=ok)
    tl.store(vel_out + 3 * offs, vx, mask=ok)
    tl.store(vel_out + 3 * offs + 1, vy, mask=ok)
    tl.store(vel_out + 3 * offs + 2, vz, mask=ok)


def run(x, y, k, zl, xedge, yedge, qx, qy, qz, thick, poro) -> tuple:
    n = x.shape[0]
    nlay, nrow, ncol = thick.shape
    node = torch.empty(n, device=x.device, dtype=torch.int32)
    vel = torch.empty(n, 3, device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(n, BLOCK),)
    _locate_velocity[grid](x, y, k, zl, xedge, yedge, qx, qy, qz, thick, poro, node, vel,
                           n, nrow, ncol, (ncol - 1).bit_length(), (nrow - 1).bit_length(),
                           BLOCK=BLOCK, num_warps=4)
    return node, vel
