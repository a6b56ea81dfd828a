"""Cressman gridding of a PPI sweep (Py-ART map_gates_to_grid, constant roi), gathered per grid block."""
import torch
import triton
import triton.language as tl

BY = 16
BX = 16
BG = 32
FILL = tl.constexpr(-9999.0)
DEG2RAD = tl.constexpr(0.017453292519943295)


@triton.jit
def _cressman_block(az, ground, refl, grid_x, grid_y, out, n_rays, n_gates, nx, ny, roi,
                    BY: tl.constexpr, BX: tl.constexpr, BG: tl.constexpr):
    p = tl.arange(0, BY * BX)
    iy = tl.program_id(0) * BY + p // BX
    ix = tl.program_id(1) * BX + p % BX
    px = tl.load(grid_x + ix, mask=ix < nx, other=0.0)
    py = tl.load(grid_y + iy, mask=iy < ny, other=0.0)
    roi2 = roi * roi
    wsum = tl.zeros([BY * BX], dtype=tl.float32)
    vsum = tl.zeros([BY * BX], dtype=tl.float32)
    # the block as a disc: centre and half-diagonal; a gate farther than that plus roi reaches no point
    x_lo = tl.min(tl.where(ix < nx, px, float("inf")), axis=0)
    x_hi = tl.max(tl.where(ix < nx, px, -float("inf")), axis=0)
    y_lo = tl.min(tl.where(iy < ny, py, float("inf")), axis=0)
    y_hi = tl.max(tl.where(iy < ny, py, -float("inf")), axis=0)
    cx = 0.5 * (x_lo + x_hi)
    cy = 0.5 * (y_lo + y_hi)
    reach = tl.sqrt(0.25 * ((x_hi - x_lo) * (x_hi - x_lo) + (y_hi - y_lo) * (y_hi - y_lo))) + roi
    reach2 = reach * reach
    s_first = tl.load(ground)
    s_last = tl.load(ground + n_gates - 1)
    for r in range(n_rays):
        theta = tl.load(az + r) * DEG2RAD
        sin_az = tl.sin(theta)
        cos_az = tl.cos(theta)
        along = cx * sin_az + cy * cos_az                 # centre projected on the ray
        t = tl.minimum(tl.maximum(along, s_first), s_last)
        if (cx - t * sin_az) * (cx - t * sin_az) + (cy - t * cos_az) * (cy - t * cos_az) <= reach2:
            for g0 in range(0, n_gates, BG):
                s_lo = tl.load(ground + g0)
                s_hi = tl.load(ground + tl.minimum(g0 + BG, n_gates) - 1)
                t = tl.minimum(tl.maximum(along, s_lo), s_hi)
                if (cx - t * sin_az) * (cx - t * sin_az) + (cy - t * cos_az) * (cy - t * cos_az) <= reach2:
                    g = g0 + tl.arange(0, BG)
                    g_ok = g < n_gates
                    s = tl.load(ground + g, mask=g_ok, other=0.0)
                    v = tl.load(refl + r * n_gates + g, mask=g_ok, other=0.0)
                    dx = px[:, None] - (s * sin_az)[None, :]
                    dy = py[:, None] - (s * cos_az)[None, :]
                    d2 = dx * dx + dy * dy
                    w = tl.where((d2 < roi2) & g_ok[None, :], (roi2 - d2) / (roi2 + d2), 0.0)
                    wsum += tl.sum(w, axis=1)
                    vsum += tl.sum(w * v[None, :], axis=1)
    grid = tl.where(wsum > 0.0, vsum / wsum, FILL)
    tl.store(out + iy * nx + ix, grid, mask=(iy < ny) & (ix < nx))


def run(az: torch.Tensor, ground: torch.Tensor, refl: torch.Tensor, grid_x: torch.Tensor,
        grid_y: torch.Tensor, roi: float) -> torch.Tensor:
    n_rays, n_gates = refl.shape
    nx, ny = grid_x.numel(), grid_y.numel()
    out = torch.empty((ny, nx), device=refl.device, dtype=torch.float32)
    grid = (triton.cdiv(ny, BY), triton.cdiv(nx, BX))
    _cressman_block[grid](az, ground, refl, grid_x, grid_y, out, n_rays, n_gates, nx, ny, roi,
                          BY=BY, BX=BX, BG=BG, num_warps=4)
    return out
