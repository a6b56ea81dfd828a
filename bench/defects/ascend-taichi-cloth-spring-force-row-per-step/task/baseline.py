"""Taichi mass-spring cloth substep: gravity, 12 springs + dashpots per point, drag, ball projection, advection."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, row, col, row_f, col_f,
            N, nf, plane, spring_y, dashpot_quad, inv_rest, DI: tl.constexpr, DJ: tl.constexpr):
    r = row + DI
    c = col + DJ
    row_ok = (r >= 0) & (r < N)
    col_ok = (c >= 0) & (c < N)
    ok = row_ok[:, None] & col_ok[None, :]
    on_row = tl.where((row_f + DI >= 0.0) & (row_f + DI < nf), 1.0, 0.0)[:, None]
    on_col = ((col_f + DJ >= 0.0) & (col_f + DJ < nf))[None, :]
    nb = ptr + (DI * N + DJ)
    xj = tl.load(x + nb, mask=ok, other=0.0)
    yj = tl.load(x + plane + nb, mask=ok, other=0.0)
    zj = tl.load(x + 2 * plane + nb, mask=ok, other=0.0)
    uj = tl.load(v + nb, mask=ok, other=0.0)
    vj = tl.load(v + plane + nb, mask=ok, other=0.0)
    wj = tl.load(v + 2 * plane + nb, mask=ok, other=0.0)
    dx = xi - xj
    dy = yi - yj
    dz = zi - zj
    dist = tl.sqrt(dx * dx + dy * dy + dz * dz)
    inv = 1.0 / tl.maximum(dist, 1e-12)
    nx = dx * inv
    ny = dy * inv
    nz = dz * inv
    vrel = (ui - uj) * nx + (vi - vj) * ny + (wi - wj) * nz
    s = tl.where(on_col, -spring_y * (dist * inv_rest - 1.0) - dashpot_quad * vrel, 0.0) * on_row
    return fx + s * nx, fy + s * ny, fz + s * nz


@triton.jit
def _cloth_substep(x, v, ball, x_out, v_out, B, N, nf, inv_quad, ball_r, dt, spring_y, dashpot_quad, drag,
                   BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = N * N
    cols = tl.arange(0, BC)
    cmask = cols < N
    col_f = cols.to(tl.float32)
    bx = tl.load(ball)
    by = tl.load(ball + 1)
    bz = tl.load(ball + 2)
    keep = tl.exp(-drag * dt)
    i_r1 = inv_quad
    i_r2 = inv_quad * 0.7071067811865476
    i_r4 = inv_quad * 0.5
    nblk = tl.cdiv(N, BR)
    for blk in range(pid, B * nblk, nprog):
        b = blk // nblk
        rows = (blk - b * nblk) * BR + tl.arange(0, BR)
        row_f = rows.to(tl.float32)
        mask = (rows < N)[:, None] & cmask[None, :]
        ptr = b * 3 * plane + rows[:, None] * N + cols[None, :]
        xi = tl.load(x + ptr, mask=mask, other=0.0)
        yi = tl.load(x + plane + ptr, mask=mask, other=0.0)
        zi = tl.load(x + 2 * plane + ptr, mask=mask, other=0.0)
        ui = tl.load(v + ptr, mask=mask, other=0.0)
        vi = tl.load(v + plane + ptr, mask=mask, other=0.0)
        wi = tl.load(v + 2 * plane + ptr, mask=mask, other=0.0)
        fx = tl.zeros([BR, BC], dtype=tl.float32)
        fy = tl.zeros([BR, BC], dtype=tl.float32)
        fz = tl.zeros([BR, BC], dtype=tl.float32)
        # |di| + |dj| <= 2: structural (rest 1), shear (sqrt 2) and the two-apart springs (rest 2), in quads
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r4, -2, 0)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r2, -1, -1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r1, -1, 0)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r2, -1, 1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r4, 0, -2)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r1, 0, -1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r1, 0, 1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r4, 0, 2)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r2, 1, -1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r1, 1, 0)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r2, 1, 1)
        fx, fy, fz = _spring(fx, fy, fz, xi, yi, zi, ui, vi, wi, x, v, ptr, rows, cols, row_f, col_f,
                             N, nf, plane, spring_y, dashpot_quad, i_r4, 2, 0)
        ui = (ui + fx * dt) * keep
        vi = (vi - 9.8 * dt + fy * dt) * keep
        wi = (wi + fz * dt) * keep
        ox = xi - bx
        oy = yi - by
        oz = zi - bz
        db = tl.sqrt(ox * ox + oy * oy + oz * oz)
        inv_b = 1.0 / tl.maximum(db, 1e-12)
        vn = tl.minimum((ui * ox + vi * oy + wi * oz) * inv_b, 0.0)
        vn = tl.where(db <= ball_r, vn, 0.0) * inv_b
        ui -= vn * ox
        vi -= vn * oy
        wi -= vn * oz
        tl.store(v_out + ptr, ui, mask=mask)
        tl.store(v_out + plane + ptr, vi, mask=mask)
        tl.store(v_out + 2 * plane + ptr, wi, mask=mask)
        tl.store(x_out + ptr, xi + dt * ui, mask=mask)
        tl.store(x_out + plane + ptr, yi + dt * vi, mask=mask)
        tl.store(x_out + 2 * plane + ptr, zi + dt * wi, mask=mask)


def run(x: torch.Tensor, v: torch.Tensor, ball_center: torch.Tensor, ball_radius: float, dt: float,
        spring_y: float, dashpot_damping: float, drag_damping: float) -> tuple:
    b, _, n, _ = x.shape
    x_out = torch.empty_like(x)
    v_out = torch.empty_like(v)
    quad = 1.0 / n
    bc = triton.next_power_of_2(n)
    br = max(1, min(1024 // bc, triton.next_power_of_2(n)))
    grid = (min(_VECTOR_CORES, b * triton.cdiv(n, br)),)
    _cloth_substep[grid](x, v, ball_center, x_out, v_out, b, n, float(n), 1.0 / quad, ball_radius, dt,
                         spring_y, dashpot_damping * quad, drag_damping, BR=br, BC=bc)
    return x_out, v_out
