"""BEVDet bev_pool_v2: sum depth-weighted camera features of the frustum points of each BEV cell."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 40


@triton.jit
def _bev_pool_v2(depth, feat, ranks_depth, ranks_feat, ranks_bev, out, n_points, C,
                 BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ch = tl.arange(0, BLOCK_C)
    cmask = ch < C
    for t in range(pid, tl.cdiv(n_points, BLOCK_P), nprog):
        p = t * BLOCK_P + tl.arange(0, BLOCK_P)
        pmask = p < n_points
        rd = tl.load(ranks_depth + p, mask=pmask, other=0)
        rf = tl.load(ranks_feat + p, mask=pmask, other=0)
        cell = tl.load(ranks_bev + p, mask=pmask, other=0)
        w = tl.load(depth + rd, mask=pmask, other=0.0)
        m2 = pmask[:, None] & cmask[None, :]
        f = tl.load(feat + rf[:, None] * C + ch[None, :], mask=m2, other=0.0)
        tl.atomic_add(out + cell[:, None] * C + ch[None, :], w[:, None] * f, mask=m2)


def run(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts, interval_lengths, grid):
    B, C = depth.shape[0], feat.shape[-1]
    out = torch.zeros((B, 1, grid, grid, C), device=feat.device, dtype=feat.dtype)
    n_points = ranks_bev.numel()
    if n_points == 0:
        return out
    BLOCK_P = 32
    programs = (min(NUM_PROGRAMS, triton.cdiv(n_points, BLOCK_P)),)
    _bev_pool_v2[programs](depth, feat, ranks_depth, ranks_feat, ranks_bev, out, n_points, C,
                           BLOCK_P=BLOCK_P, BLOCK_C=triton.next_power_of_2(C))
    return out
