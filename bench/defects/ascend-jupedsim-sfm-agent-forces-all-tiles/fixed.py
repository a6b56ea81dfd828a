"""Social force model (JuPedSim SocialForceModel): agent-agent repulsion, body force and friction."""
import torch
import triton
import triton.language as tl

BI = 16   # agents per block
BJ = 128  # partners per tile
_VECTOR_CORES = 40
FAR = 1.0e6  # position of padded partner lanes: far beyond the cut-off


@triton.jit
def _agent_forces(x, y, vx, vy, rad, cell_of, cell_start, fx, fy, n, ncx, n_cells, cutoff2,
                  A, inv_B, k_body, kappa, BI: tl.constexpr, BJ: tl.constexpr, FAR: tl.constexpr):
    for blk in range(tl.program_id(0), tl.cdiv(n, BI), tl.num_programs(0)):
        i = blk * BI + tl.arange(0, BI)
        im = i < n
        xi = tl.load(x + i, mask=im, other=0.0)
        yi = tl.load(y + i, mask=im, other=0.0)
        vxi = tl.load(vx + i, mask=im, other=0.0)
        vyi = tl.load(vy + i, mask=im, other=0.0)
        ri = tl.load(rad + i, mask=im, other=0.0)
        acc_x = tl.zeros([BI], dtype=tl.float32)
        acc_y = tl.zeros([BI], dtype=tl.float32)
        # partners within the cut-off lie in the 3 x 3 cells around each agent's cell: with agents
        # sorted by cell id that is the id range [first - ncx - 1, last + ncx + 1] of this block
        c_lo = tl.load(cell_of + blk * BI)
        c_hi = tl.load(cell_of + tl.minimum(blk * BI + BI, n) - 1)
        j_lo = tl.load(cell_start + tl.maximum(c_lo - ncx - 1, 0))
        j_hi = tl.load(cell_start + tl.minimum(c_hi + ncx + 2, n_cells))
        for jt in range(j_lo // BJ, tl.cdiv(j_hi, BJ)):
            j = jt * BJ + tl.arange(0, BJ)
            jm = j < n
            xj = tl.load(x + j, mask=jm, other=FAR)
            yj = tl.load(y + j, mask=jm, other=FAR)
            vxj = tl.load(vx + j, mask=jm, other=0.0)
            vyj = tl.load(vy + j, mask=jm, other=0.0)
            rj = tl.load(rad + j, mask=jm, other=0.0)
            dx = xi[:, None] - xj[None, :]
            dy = yi[:, None] - yj[None, :]
            d2 = dx * dx + dy * dy
            near = (d2 < cutoff2) & (d2 > 0.0)  # j != i: distinct agents never share a position
            d = tl.sqrt(d2)
            inv_d = 1.0 / tl.where(near, d, 1.0)
            nx = dx * inv_d
            ny = dy * inv_d
            gap = ri[:, None] + rj[None, :] - d
            g = tl.maximum(gap, 0.0)
            push = A * tl.exp(gap * inv_B) + k_body * g
            dvt = (vxj[None, :] - vxi[:, None]) * (-ny) + (vyj[None, :] - vyi[:, None]) * nx
            fric = kappa * g * dvt
            acc_x += tl.sum(tl.where(near, push * nx - fric * ny, 0.0), axis=1)
            acc_y += tl.sum(tl.where(near, push * ny + fric * nx, 0.0), axis=1)
        tl.store(fx + i, acc_x, mask=im)
        tl.store(fy + i, acc_y, mask=im)


def run(x, y, vx, vy, radius, cell_of, cell_start, ncx, cutoff, A, B, k, kappa):
    n = x.shape[0]
    fx = torch.empty_like(x)
    fy = torch.empty_like(x)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BI)),)
    _agent_forces[grid](x, y, vx, vy, radius, cell_of, cell_start, fx, fy, n, ncx, cell_start.shape[0] - 1,
                        cutoff * cutoff, A, 1.0 / B, k, kappa, BI=BI, BJ=BJ, FAR=FAR)
    return fx, fy
