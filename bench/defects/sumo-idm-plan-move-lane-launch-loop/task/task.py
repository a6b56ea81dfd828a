"""One SUMO simulation step of the Intelligent Driver Model for every vehicle on every lane.

SUMO (carFollowModel="IDM", MSCFModel_IDM) plans each vehicle's next speed from its leader on the
same lane (MSVehicle::planMove) and then moves it with the Euler update (executeMove). Vehicles are
stored lane by lane (CSR: lane_start [L+1]), sorted by position along the lane, so the leader of
vehicle i is vehicle i+1 when it is on the same lane; the vehicle at the head of a lane sees a free
road. With the default passenger vType (accel a = 2.6, decel b = 4.5, tau T = 1.0 s, minGap s0 = 2.5 m,
delta = 4, emergencyDecel 9.0):

    s     = x_lead - len_lead - x                                (bumper-to-bumper gap)
    s*    = s0 + max(0, v T + v (v - v_lead) / (2 sqrt(a b)))
    acc   = a (1 - (v / v0)^4 - (s* / s)^2)                       ((s*/s)^2 dropped on a free road)
    acc   = max(acc, -emergencyDecel)
    v'    = max(0, v + acc dt),   x' = x + v' dt

Returns (x' [N] fp32, v' [N] fp32).
"""
import torch

META = {
    "name": "sumo_idm_step",
    "level": 1,
    "category": "traffic-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"lanes": 6, "cap": 20, "lane_length": 150.0},
        "ragged": {"lanes": 11, "cap": 37, "lane_length": 260.0},
        "large": {"lanes": 4096, "cap": 64, "lane_length": 500.0},
    },
    "baseline_notes": "One launch over all N vehicles (BLOCK = 128, 4 warps): each lane of the block loads "
                      "its vehicle and the next one; the next vehicle is the leader when its lane id "
                      "matches. No host synchronisation, no autotune.",
    "deterministic": True,
}

ACCEL, DECEL, TAU, MIN_GAP, DELTA, EMERGENCY_DECEL = 2.6, 4.5, 1.0, 2.5, 4, 9.0
SPEED_LIMIT = 13.89  # 50 km/h urban lanes
DT = 1.0             # SUMO's default step length


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos, speed, length, v0 [N] fp32 (lane by lane, ascending position), veh_lane [N] int32,
    lane_start [L+1] int32, dt (float)."""
    s = META["sizes"][size]
    n_lanes, cap, lane_len = s["lanes"], s["cap"], s["lane_length"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(0, cap + 1, (n_lanes,), generator=g)
    lane_start = torch.zeros(n_lanes + 1, dtype=torch.int64)
    lane_start[1:] = torch.cumsum(counts, 0)
    n = int(lane_start[-1])
    veh_lane = torch.repeat_interleave(torch.arange(n_lanes), counts)
    length = 4.0 + 1.5 * torch.rand(n, generator=g, dtype=torch.float64)
    # every vehicle keeps at least 1 m to its leader; the rest of the lane is spread at random
    need = torch.zeros(n_lanes, dtype=torch.float64).index_add_(0, veh_lane, length + 1.0)
    w = torch.rand(n, generator=g, dtype=torch.float64) + 1e-3
    wsum = torch.zeros(n_lanes, dtype=torch.float64).index_add_(0, veh_lane, w)
    fill = torch.rand(n_lanes, generator=g, dtype=torch.float64)
    slack = w / wsum[veh_lane] * ((lane_len - need) * fill)[veh_lane]
    step = length + 1.0 + slack
    cum = torch.cumsum(step, 0)
    base = torch.cat([torch.zeros(1, dtype=torch.float64), cum])[lane_start[:-1]]
    pos = cum - base[veh_lane]
    v0 = SPEED_LIMIT * (1.0 + 0.1 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(0.8, 1.2)
    speed = v0 * torch.rand(n, generator=g, dtype=torch.float64)
    f = lambda t: t.to(dtype=dt, device=device)
    return (f(pos), f(speed), f(length), f(v0), veh_lane.to(torch.int32).to(device),
            lane_start.to(torch.int32).to(device), DT)


def reference(pos, speed, length, v0, veh_lane, lane_start, dt):
    x, v, ln, vd = pos.double(), speed.double(), length.double(), v0.double()
    n = x.shape[0]
    idx = torch.arange(n, device=x.device)
    nxt = (idx + 1).clamp(max=max(n - 1, 0))
    has_lead = (idx + 1 < n) & (veh_lane[nxt] == veh_lane)
    gap = x[nxt] - ln[nxt] - x
    s_star = MIN_GAP + torch.clamp(v * TAU + v * (v - v[nxt]) / (2.0 * (ACCEL * DECEL) ** 0.5), min=0.0)
    inter = torch.where(has_lead, (s_star / torch.where(has_lead, gap, 1.0)) ** 2, 0.0)
    acc = ACCEL * (1.0 - (v / vd) ** DELTA - inter)
    acc = acc.clamp(min=-EMERGENCY_DECEL)
    v_new = (v + acc * dt).clamp(min=0.0)
    x_new = x + v_new * dt
    return x_new.to(pos.dtype), v_new.to(speed.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["lanes"] * s["cap"] // 2
    return {"bytes": n * (4 * 4 + 4 + 8), "flops": 30 * n}
