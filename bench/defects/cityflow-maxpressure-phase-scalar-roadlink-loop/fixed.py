"""Max-pressure phase choice per intersection (CityFlow network, PressLight / LibSignal MaxPressure agent)."""
import torch
import triton
import triton.language as tl

MAX_P, MAX_M = 8, 12


@triton.jit
def _max_pressure(lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed,
                  pressure, next_phase, t_min, MAX_P: tl.constexpr, MAX_M: tl.constexpr,
                  P_BLOCK: tl.constexpr, M_BLOCK: tl.constexpr):
    node = tl.program_id(0)
    phases = tl.load(n_phase + node)
    links = tl.load(n_link + node)
    p = tl.arange(0, P_BLOCK)
    m = tl.arange(0, M_BLOCK)
    p_ok = p < phases
    m_ok = m < links
    src = tl.load(in_lane + node * MAX_M + m, mask=m_ok, other=0)
    dst = tl.load(out_lane + node * MAX_M + m, mask=m_ok, other=0)
    diff = tl.load(lane_count + src, mask=m_ok, other=0) - tl.load(lane_count + dst, mask=m_ok, other=0)
    green = tl.load(avail + (node * MAX_P + p[:, None]) * MAX_M + m[None, :],
                    mask=p_ok[:, None] & m_ok[None, :], other=0) != 0
    s = tl.sum(tl.where(green, diff[None, :], 0), axis=1)
    tl.store(pressure + node * MAX_P + p, s, mask=p_ok)
    best_p = tl.argmax(tl.where(p_ok, s, -2147483647), axis=0)
    keep = tl.load(elapsed + node) < t_min
    tl.store(next_phase + node, tl.where(keep, tl.load(cur_phase + node), best_p.to(tl.int32)))


def run(lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed, t_min):
    n_int = n_phase.shape[0]
    pressure = torch.zeros(n_int, MAX_P, device=lane_count.device, dtype=torch.int32)
    next_phase = torch.empty(n_int, device=lane_count.device, dtype=torch.int32)
    _max_pressure[(n_int,)](lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed,
                            pressure, next_phase, t_min, MAX_P=MAX_P, MAX_M=MAX_M,
                            P_BLOCK=triton.next_power_of_2(MAX_P), M_BLOCK=triton.next_power_of_2(MAX_M),
                            num_warps=4)
    return next_phase, pressure
