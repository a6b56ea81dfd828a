"""SUMO IDM step (MSCFModel_IDM follow speed + Euler move), lane by lane as MSEdgeControl walks them."""
import torch
import triton
import triton.language as tl

BLOCK = 128
ACCEL, DECEL, TAU, MIN_GAP, EMERGENCY_DECEL = 2.6, 4.5, 1.0, 2.5, 9.0


@triton.jit
def _idm_lane(pos, speed, length, v0, new_pos, new_speed, first, n, dt,
              ACCEL: tl.constexpr, DECEL: tl.constexpr, TAU: tl.constexpr, MIN_GAP: tl.constexpr,
              EMERGENCY_DECEL: tl.constexpr, BLOCK: tl.constexpr):
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = k < n
    i = first + k
    x = tl.load(pos + i, mask=ok, other=0.0)
    v = tl.load(speed + i, mask=ok, other=0.0)
    vd = tl.load(v0 + i, mask=ok, other=1.0)
    has_lead = ok & (k + 1 < n)
    x_l = tl.load(pos + i + 1, mask=has_lead, other=0.0)
    v_l = tl.load(speed + i + 1, mask=has_lead, other=0.0)
    len_l = tl.load(length + i + 1, mask=has_lead, other=0.0)
    gap = tl.where(has_lead, x_l - len_l - x, 1.0)
    s_star = MIN_GAP + tl.maximum(v * TAU + v * (v - v_l) / (2.0 * tl.sqrt(ACCEL * DECEL)), 0.0)
    ratio = s_star / gap
    inter = tl.where(has_lead, ratio * ratio, 0.0)
    r = v / vd
    r2 = r * r
    acc = ACCEL * (1.0 - r2 * r2 - inter)
    acc = tl.maximum(acc, -EMERGENCY_DECEL)
    v_new = tl.maximum(v + acc * dt, 0.0)
    tl.store(new_speed + i, v_new, mask=ok)
    tl.store(new_pos + i, x + v_new * dt, mask=ok)


def run(pos, speed, length, v0, veh_lane, lane_start, dt):
    new_pos = torch.empty_like(pos)
    new_speed = torch.empty_like(speed)
    bounds = lane_start.tolist()
    for lane in range(len(bounds) - 1):
        first, n = bounds[lane], bounds[lane + 1] - bounds[lane]
        if n == 0:
            continue
        _idm_lane[(triton.cdiv(n, BLOCK),)](
            pos, speed, length, v0, new_pos, new_speed, first, n, dt,
            ACCEL=ACCEL, DECEL=DECEL, TAU=TAU, MIN_GAP=MIN_GAP, EMERGENCY_DECEL=EMERGENCY_DECEL,
            BLOCK=BLOCK, num_warps=4)
    return new_pos, new_speed
