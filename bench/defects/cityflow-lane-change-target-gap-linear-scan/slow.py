"""CityFlow lane-change gap search: leader and follower of every vehicle on its target lane."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _target_lane_neighbours(pos, length, target, lane_start, leader, follower, gap_ahead, gap_behind,
                            n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < n
    x = tl.load(pos + i, mask=ok, other=0.0)
    tgt = tl.load(target + i, mask=ok, other=-1)
    has = ok & (tgt >= 0)
    first = tl.load(lane_start + tgt, mask=has, other=0)
    cnt = tl.load(lane_start + tgt + 1, mask=has, other=0) - first
    # Lane::getVehicleAfterDistance: walk the target lane from its tail, counting who is behind us
    below = tl.zeros([BLOCK], dtype=tl.int32)
    for k in range(0, tl.max(cnt, axis=0)):
        p = tl.load(pos + first + k, mask=k < cnt, other=float("inf"))
        below += (p <= x).to(tl.int32)
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
        BLOCK=BLOCK, num_warps=4)
    return leader, follower, gap_ahead, gap_behind
