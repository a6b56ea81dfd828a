"""Taichi DEM grain contact: gravity + spring-dashpot normal force from every overlapping grain (2-D discs)."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BI = 16
BJ = 64


@triton.jit
def _grain_contact_fwd(pos, vel, mass, rad, col_start, force, N, G, grid_scale, stiffness, beta, gravity,
                       BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for it in range(pid, tl.cdiv(N, BI), nprog):
        rows = it * BI + tl.arange(0, BI)
        rmask = rows < N
        pxi = tl.load(pos + rows, mask=rmask, other=1.0)
        pyi = tl.load(pos + N + rows, mask=rmask, other=0.0)
        vxi = tl.load(vel + rows, mask=rmask, other=0.0)
        vyi = tl.load(vel + N + rows, mask=rmask, other=0.0)
        mi = tl.load(mass + rows, mask=rmask, other=1.0)
        ri = tl.load(rad + rows, mask=rmask, other=0.0)
        fx = tl.zeros([BI], dtype=tl.float32)
        fy = mi * gravity
        # grains are column-sorted and 2 r_max < 1 / G: partners sit in columns c_lo - 1 .. c_hi + 1
        col_i = tl.minimum((pxi * grid_scale).to(tl.int32), G - 1)
        c_lo = tl.min(col_i, axis=0)
        c_hi = tl.max(col_i, axis=0)
        j_lo = tl.load(col_start + tl.maximum(c_lo - 1, 0))
        j_hi = tl.load(col_start + tl.minimum(c_hi + 2, G))
        for j0 in range(j_lo, j_hi, BJ):
            cols = j0 + tl.arange(0, BJ)
            cmask = cols < N
            pxj = tl.load(pos + cols, mask=cmask, other=1.0e6)
            pyj = tl.load(pos + N + cols, mask=cmask, other=1.0e6)
            vxj = tl.load(vel + cols, mask=cmask, other=0.0)
            vyj = tl.load(vel + N + cols, mask=cmask, other=0.0)
            mj = tl.load(mass + cols, mask=cmask, other=1.0)
            rj = tl.load(rad + cols, mask=cmask, other=0.0)
            rx = pxj[None, :] - pxi[:, None]
            ry = pyj[None, :] - pyi[:, None]
            dist = tl.sqrt(rx * rx + ry * ry)
            delta = ri[:, None] + rj[None, :] - dist
            hit = (delta > 0.0) & (dist > 0.0)
            inv = 1.0 / tl.maximum(dist, 1e-12)
            nx = rx * inv
            ny = ry * inv
            mij = mi[:, None] * mj[None, :] / (mi[:, None] + mj[None, :])
            damp = beta * tl.sqrt(stiffness * mij)
            vn = (vxj[None, :] - vxi[:, None]) * nx + (vyj[None, :] - vyi[:, None]) * ny
            s = tl.where(hit, damp * vn - stiffness * delta, 0.0)
            fx += tl.sum(s * nx, axis=1)
            fy += tl.sum(s * ny, axis=1)
        tl.store(force + rows, fx, mask=rmask)
        tl.store(force + N + rows, fy, mask=rmask)


def run(pos: torch.Tensor, vel: torch.Tensor, mass: torch.Tensor, radius: torch.Tensor,
        col_start: torch.Tensor, stiffness: float, restitution: float, gravity: float) -> torch.Tensor:
    n = pos.shape[1]
    force = torch.empty((2, n), device=pos.device, dtype=pos.dtype)
    beta = 2.0 / math.sqrt(1.0 + (math.pi / math.log(restitution)) ** 2)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BI)),)
    g = col_start.shape[0] - 1
    _grain_contact_fwd[grid](pos, vel, mass, radius, col_start, force, n, g, float(g),
                             stiffness, beta, gravity, BI=BI, BJ=BJ)
    return force
