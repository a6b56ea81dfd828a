"""CityFlow lane-change gap search: leader and follower of every vehicle on its target lane."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _target_lane_neighbours(pos, length, target, lane_start, leader, follower, gap_ahead, gap_behind,
                            n, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    x = tl.load(pos + i, mask=ok, other=0.0)
    tgt = tl.load(target + i, mask=ok, other=-1)
    has = ok & (tgt >= 0)
    first = tl.load(lane_start + tgt, mask=has, other=0)
    cnt = tl.load(lane_start + tgt + 1, mask=has, other=0) - first
    # the target lane is sorted by position: binary-search how many of its vehicles are behind us
    lo = tl.zeros([BLOCK], dtype=tl.int32)
    hi = cnt
    for _ in range(STEPS):
        live = lo < hi
        mid = (lo + hi) >> 1
        p = tl.load(pos + first + mid, mask=live, other=0.0)
        right = p <= x
        lo = tl.where(live & right, mid + 1, lo)
        hi = tl.where(live & (p > x), mid, hi)
    below = lo
    has_l = has & (below < cnt)
    has_f = has & (below > 0)
    li = first + below
    fi = li - 1
    x_l = tl.load(pos + li, mask=has_l, other=0.0)
    len_l = tl.load(length + li, mask=has_l, other=0.0)
    x_f = tl.load(pos + fi, mask=has_f, other=0.0)
    my_len = tl.load(length + i, mask=ok, other=0.0)
    tl.store(leader + i, tl.where(has_l, li, -1), mask=ok)
    tl.store(follower + i, tl.where(has_f, fi, -1), mask=ok)
    tl.store(gap_ahead + i, tl.where(has_l, x_l - len_l - x, float("inf")), mask=ok)
    tl.store(gap_behind + i, tl.where(has_f, x - my_len - x_f, float("inf")), mask=ok)


def run(pos, length, target, lane_start, lane_cap):
    n = pos.shape[0]
    leader = torch.empty(n, device=pos.device, dtype=torch.int32)
    follower = torch.empty(n, device=pos.device, dtype=torch.int32)
    gap_ahead = torch.empty_like(pos)
    gap_behind = torch.empty_like(pos)
    _target_lane_neighbours[(triton.cdiv(n, BLOCK),)](
        pos, length, target, lane_start, leader, follower, gap_ahead, gap_behind, n,
        BLOCK=BLOCK, STEPS=int(lane_cap).bit_length(), num_warps=4)
    return leader, follower, gap_ahead, gap_behind
