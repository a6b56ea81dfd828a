"""Lane-change gap search of CityFlow: the leader and follower a vehicle would have on its target lane.

CityFlow's LaneChange::makeSignal asks the target lane for the first vehicle ahead of the changer's
position (Lane::getVehicleAfterDistance) and the last one at or behind it (getVehicleBeforeDistance),
then checks the gaps against the safe gaps before committing the change. Vehicles are stored lane by
lane (CSR: lane_start [L+1]) in ascending position order. For every vehicle i with a target lane t
(target[i] >= 0; -1 means no lane change wanted):

    k            = #{ j in lane t : pos[j] <= pos[i] }
    leader[i]    = lane_start[t] + k        if k < n_t else -1
    follower[i]  = lane_start[t] + k - 1    if k > 0   else -1
    gap_ahead[i] = pos[leader] - length[leader] - pos[i]      (+inf without a leader)
    gap_behind[i]= pos[i] - length[i] - pos[follower]         (+inf without a follower)

Vehicles without a target get -1, -1, +inf, +inf. Returns (leader int32 [N], follower int32 [N],
gap_ahead fp32 [N], gap_behind fp32 [N]). lane_cap is the static lane capacity (most vehicles any lane
can hold: lane length / (shortest vehicle + minGap)).
"""
import torch

META = {
    "name": "cityflow_lane_change_gaps",
    "level": 2,
    "category": "traffic-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"links": 4, "max_lanes": 3, "cap": 20, "lane_length": 150.0},
        "ragged": {"links": 7, "max_lanes": 3, "cap": 37, "lane_length": 260.0},
        "large": {"links": 768, "max_lanes": 3, "cap": 512, "lane_length": 4000.0},
    },
    "baseline_notes": "One program per 256 vehicles (4 warps): each lane loads its vehicle's position and "
                      "target lane, reads the target lane's CSR bounds and binary-searches the lane's sorted "
                      "positions (bit_length(lane_cap) halving steps), then gathers the leader and follower. "
                      "No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos, length [N] fp32 (lane by lane, ascending position), target [N] int32, lane_start [L+1] int32,
    lane_cap (int)."""
    s = META["sizes"][size]
    cap, lane_len = s["cap"], s["lane_length"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lanes_per_link = torch.randint(1, s["max_lanes"] + 1, (s["links"],), generator=g)
    n_lanes = int(lanes_per_link.sum())
    link_of = torch.repeat_interleave(torch.arange(s["links"]), lanes_per_link)
    link_first = torch.cumsum(lanes_per_link, 0) - lanes_per_link
    idx_in_link = torch.arange(n_lanes) - link_first[link_of]
    width = lanes_per_link[link_of]
    counts = torch.randint(cap // 4, cap + 1, (n_lanes,), generator=g)
    lane_start = torch.zeros(n_lanes + 1, dtype=torch.int64)
    lane_start[1:] = torch.cumsum(counts, 0)
    n = int(lane_start[-1])
    veh_lane = torch.repeat_interleave(torch.arange(n_lanes), counts)
    length = 4.0 + 1.5 * torch.rand(n, generator=g, dtype=torch.float64)
    need = torch.zeros(n_lanes, dtype=torch.float64).index_add_(0, veh_lane, length + 1.0)
    w = torch.rand(n, generator=g, dtype=torch.float64) + 1e-3
    wsum = torch.zeros(n_lanes, dtype=torch.float64).index_add_(0, veh_lane, w)
    fill = 0.2 + 0.8 * torch.rand(n_lanes, generator=g, dtype=torch.float64)
    cum = torch.cumsum(length + 1.0 + w / wsum[veh_lane] * ((lane_len - need) * fill)[veh_lane], 0)
    base = torch.cat([torch.zeros(1, dtype=torch.float64), cum])[lane_start[:-1]]
    pos = cum - base[veh_lane]
    # each vehicle wants the inner (left) lane, the outer (right) lane or no change
    j, m = idx_in_link[veh_lane], width[veh_lane]
    choice = torch.randint(0, 3, (n,), generator=g)
    left_ok, right_ok = j + 1 < m, j > 0
    target = torch.full((n,), -1, dtype=torch.int64)
    target = torch.where((choice == 0) & left_ok, veh_lane + 1, target)
    target = torch.where((choice == 1) & right_ok, veh_lane - 1, target)
    target = torch.where((choice == 2) & left_ok & ~right_ok, veh_lane + 1, target)
    return (pos.to(dtype=dt, device=device), length.to(dtype=dt, device=device),
            target.to(torch.int32).to(device), lane_start.to(torch.int32).to(device), cap)


def reference(pos, length, target, lane_start, lane_cap):
    x, ln = pos.double(), length.double()
    n, n_lanes = x.shape[0], lane_start.shape[0] - 1
    starts = lane_start.long()
    veh_lane = torch.repeat_interleave(torch.arange(n_lanes, device=x.device), starts[1:] - starts[:-1])
    key = veh_lane.double() * 1.0e4 + x                      # globally sorted: lane, then position
    has = target >= 0
    t = target.long().clamp(min=0)
    k = torch.searchsorted(key, t.double() * 1.0e4 + x, right=True) - starts[t]
    cnt = starts[t + 1] - starts[t]
    has_l, has_f = has & (k < cnt), has & (k > 0)
    li = (starts[t] + k).clamp(max=max(n - 1, 0))
    fi = (starts[t] + k - 1).clamp(min=0)
    inf = torch.full_like(x, float("inf"))
    leader = torch.where(has_l, starts[t] + k, -1).to(torch.int32)
    follower = torch.where(has_f, starts[t] + k - 1, -1).to(torch.int32)
    gap_ahead = torch.where(has_l, x[li] - ln[li] - x, inf).to(pos.dtype)
    gap_behind = torch.where(has_f, x - ln - x[fi], inf).to(pos.dtype)
    return leader, follower, gap_ahead, gap_behind


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["links"] * (s["max_lanes"] + 1) // 2 * (5 * s["cap"] // 8)
    return {"bytes": n * (4 * 3 + 16), "flops": 4 * n * s["cap"].bit_length()}
