"""Vadere static floor field: one Jacobi sweep of the eikonal equation (Godunov upwind update)."""
import torch
import triton
import triton.language as tl

BIG = 1.0e18
_VECTOR_CORES = 40
# a few rows of wide, contiguous row segments per step
BLOCK_R = 4
BLOCK_C = 512


@triton.jit
def _eikonal_sweep(t_in, speed, t_out, H, W, h,
                   BIG: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_tc = tl.cdiv(W, BLOCK_C)
    n_tiles = tl.cdiv(H, BLOCK_R) * n_tc
    for tile in range(pid, n_tiles, nprog):
        rows = (tile // n_tc) * BLOCK_R + tl.arange(0, BLOCK_R)
        cols = (tile % n_tc) * BLOCK_C + tl.arange(0, BLOCK_C)
        rin = rows < H
        cin = cols < W
        m = rin[:, None] & cin[None, :]
        offs = rows[:, None] * W + cols[None, :]
        t_c = tl.load(t_in + offs, mask=m, other=BIG)
        t_n = tl.load(t_in + offs - W, mask=(rin & (rows >= 1))[:, None] & cin[None, :], other=BIG)
        t_s = tl.load(t_in + offs + W, mask=(rows + 1 < H)[:, None] & cin[None, :], other=BIG)
        t_w = tl.load(t_in + offs - 1, mask=rin[:, None] & (cin & (cols >= 1))[None, :], other=BIG)
        t_e = tl.load(t_in + offs + 1, mask=rin[:, None] & (cols + 1 < W)[None, :], other=BIG)
        f = h / tl.load(speed + offs, mask=m, other=1.0)
        a = tl.minimum(t_w, t_e)
        b = tl.minimum(t_n, t_s)
        d = a - b
        one_sided = tl.minimum(a, b) + f
        two_sided = 0.5 * (a + b + tl.sqrt(2.0 * f * f - d * d))
        t = tl.where(tl.abs(d) >= f, one_sided, two_sided)
        tl.store(t_out + offs, tl.minimum(t_c, t), mask=m)


def run(T: torch.Tensor, speed: torch.Tensor, h: float) -> torch.Tensor:
    H, W = T.shape
    out = torch.empty_like(T)
    n_tiles = triton.cdiv(H, BLOCK_R) * triton.cdiv(W, BLOCK_C)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _eikonal_sweep[grid](T, speed, out, H, W, h, BIG=BIG, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return out
