"""Max-pressure phase choice per intersection (CityFlow network, PressLight / LibSignal MaxPressure agent)."""
import torch
import triton
import triton.language as tl

MAX_P, MAX_M = 8, 12


@triton.jit
def _max_pressure(lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed,
                  pressure, next_phase, t_min, MAX_P: tl.constexpr, MAX_M: tl.constexpr):
    node = tl.program_id(0)
    phases = tl.load(n_phase + node)
    links = tl.load(n_link + node)
    best = tl.full([], -2147483647, tl.int32)
    best_p = tl.full([], 0, tl.int32)
    for p in range(0, phases):
        s = tl.full([], 0, tl.int32)
        for m in range(0, links):
            green = tl.load(avail + (node * MAX_P + p) * MAX_M + m) != 0
            src = tl.load(in_lane + node * MAX_M + m)
            dst = tl.load(out_lane + node * MAX_M + m)
            s += tl.load(lane_count + src, mask=green, other=0) - tl.load(lane_count + dst, mask=green, other=0)
        tl.store(pressure + node * MAX_P + p, s)
        better = s > best
        best = tl.where(better, s, best)
        best_p = tl.where(better, p, best_p)
    keep = tl.load(elapsed + node) < t_min
    tl.store(next_phase + node, tl.where(keep, tl.load(cur_phase + node), best_p))


def run(lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed, t_min):
    n_int = n_phase.shape[0]
    pressure = torch.zeros(n_int, MAX_P, device=lane_count.device, dtype=torch.int32)
    next_phase = torch.empty(n_int, device=lane_count.device, dtype=torch.int32)
    _max_pressure[(n_int,)](lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed,
                            pressure, next_phase, t_min, MAX_P=MAX_P, MAX_M=MAX_M, num_warps=4)
    return next_phase, pressure
