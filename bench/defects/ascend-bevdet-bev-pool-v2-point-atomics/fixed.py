"""BEVDet bev_pool_v2: sum depth-weighted camera features of the frustum points of each BEV cell."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 40


@triton.jit
def _bev_pool_v2(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts, interval_lengths,
                 out, n_intervals, C, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ch = tl.arange(0, BLOCK_C)
    cmask = ch < C
    for i in range(pid, n_intervals, nprog):
        start = tl.load(interval_starts + i)
        end = start + tl.load(interval_lengths + i)
        acc = tl.zeros([BLOCK_C], dtype=tl.float32)
        for p0 in range(start, end, BLOCK_P):
            p = p0 + tl.arange(0, BLOCK_P)
            pmask = p < end
            rd = tl.load(ranks_depth + p, mask=pmask, other=0)
            rf = tl.load(ranks_feat + p, mask=pmask, other=0)
            w = tl.load(depth + rd, mask=pmask, other=0.0)
            m2 = pmask[:, None] & cmask[None, :]
            f = tl.load(feat + rf[:, None] * C + ch[None, :], mask=m2, other=0.0)
            acc += tl.sum(w[:, None] * f, axis=0)
        cell = tl.load(ranks_bev + start)
        tl.store(out + cell * C + ch, acc, mask=cmask)


def run(depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts, interval_lengths, grid):
    B, C = depth.shape[0], feat.shape[-1]
    out = torch.zeros((B, 1, grid, grid, C), device=feat.device, dtype=feat.dtype)
    n_intervals = interval_starts.numel()
    if n_intervals == 0:
        return out
    programs = (min(NUM_PROGRAMS, n_intervals),)
    _bev_pool_v2[programs](depth, feat, ranks_depth, ranks_feat, ranks_bev, interval_starts,
                           interval_lengths, out, n_intervals, C,
                           BLOCK_P=16, BLOCK_C=triton.next_power_of_2(C))
    return out
