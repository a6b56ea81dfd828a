"""Max-pressure signal control on a CityFlow road network (the MaxPressure agent of PressLight / LibSignal).

Every intersection has n_link roadlinks (movements from an incoming lane to an outgoing lane) and
n_phase signal phases; CityFlow's LightPhase keeps, per phase, which roadlinks are green
(roadLinkAvailable). The pressure of a phase is the sum over its green roadlinks of
(vehicles on the incoming lane - vehicles on the outgoing lane). The controller switches to the
phase of largest pressure (the first one on ties) unless the current phase has been green for less
than the minimum green time t_min:

    pressure[i, p] = sum_{m < n_link[i], avail[i, p, m]} lane_count[in_lane[i, m]] - lane_count[out_lane[i, m]]
    next_phase[i]  = cur_phase[i] if elapsed[i] < t_min else argmax_{p < n_phase[i]} pressure[i, p]

Padded phases (p >= n_phase[i]) have pressure 0. Returns (next_phase int32 [I], pressure int32 [I, MAX_P]).
"""
import torch

META = {
    "name": "cityflow_max_pressure",
    "level": 1,
    "category": "traffic-simulation",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"rows": 3, "cols": 3},
        "ragged": {"rows": 5, "cols": 3},
        "large": {"rows": 100, "cols": 100},
    },
    "baseline_notes": "One program per intersection (4 warps): the intersection's roadlinks are loaded as a "
                      "16-wide vector, their lane counts gathered once, the [8, 16] roadLinkAvailable tile "
                      "is reduced along the roadlink axis into the 8 phase pressures and tl.argmax picks the "
                      "phase. No autotune.",
    "deterministic": True,
}
MAX_P, MAX_M = 8, 12
T_MIN = 10          # minimum green, seconds
LANES_PER_ROAD = 3  # left, through, right

# CityFlow's standard 8 phases of a 4-arm intersection. Roadlink m = 3 * approach + turn
# (approaches N, E, S, W; turns left, through, right); right turns are green in every phase.
_PHASES_4WAY = [
    [4, 10], [1, 7], [3, 9], [0, 6],      # E-W through, N-S through, E-W left, N-S left
    [3, 4], [9, 10], [0, 1], [6, 7],      # E, W, N, S: through + left of one arm
]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lane_count [L] int32, in_lane / out_lane [I, 12] int32 (-1 padded), avail [I, 8, 12] int8,
    n_phase / n_link / cur_phase / elapsed [I] int32, t_min (int)."""
    s = META["sizes"][size]
    rows, cols = s["rows"], s["cols"]
    n_int = rows * cols
    g = torch.Generator().manual_seed(seed)
    n_lanes = n_int * 4 * LANES_PER_ROAD
    lane_count = torch.randint(0, 41, (n_lanes,), generator=g)
    node = torch.arange(n_int)
    r, c = node // cols, node % cols
    # neighbour in direction N, E, S, W (torus) and the approach it is entered from (S, W, N, E)
    nb = torch.stack([((r - 1) % rows) * cols + c, r * cols + (c + 1) % cols,
                      ((r + 1) % rows) * cols + c, r * cols + (c - 1) % cols], 1)
    approach = torch.arange(4)
    turn = torch.arange(3)
    m_app = approach.repeat_interleave(3)           # [12]
    m_turn = turn.repeat(4)                          # [12]
    in_lane = node[:, None] * 12 + m_app[None, :] * LANES_PER_ROAD + m_turn[None, :]
    # arriving from approach a (heading opposite to it), left/through/right leave towards:
    heading = (m_app + 2) % 4
    exit_dir = torch.stack([(heading + 3) % 4, heading, (heading + 1) % 4], 1)[torch.arange(12), m_turn]
    dest = nb[:, exit_dir]                                    # [I, 12]
    dest_lane = torch.randint(0, LANES_PER_ROAD, (n_int, 12), generator=g)
    out_lane = dest * 12 + ((exit_dir + 2) % 4)[None, :] * LANES_PER_ROAD + dest_lane
    avail = torch.zeros(n_int, MAX_P, MAX_M, dtype=torch.int8)
    for p, links in enumerate(_PHASES_4WAY):
        avail[:, p, links] = 1
    avail[:, :, [2, 5, 8, 11]] = 1
    # about a quarter are T-junctions: 6 roadlinks, 4 phases with their own green sets
    tee = torch.rand(n_int, generator=g) < 0.25
    n_link = torch.where(tee, 6, 12)
    n_phase = torch.where(tee, 4, 8)
    tee_avail = (torch.rand(n_int, MAX_P, MAX_M, generator=g) < 0.45).to(torch.int8)
    tee_avail[:, :, 6:] = 0
    tee_avail[:, 4:, :] = 0
    avail = torch.where(tee[:, None, None], tee_avail, avail)
    m_ok = torch.arange(MAX_M)[None, :] < n_link[:, None]
    in_lane = torch.where(m_ok, in_lane, -1)
    out_lane = torch.where(m_ok, out_lane, -1)
    cur_phase = (torch.rand(n_int, generator=g) * n_phase).long()
    elapsed = torch.randint(0, 3 * T_MIN, (n_int,), generator=g)
    i32 = lambda t: t.to(torch.int32).to(device)
    return (i32(lane_count), i32(in_lane), i32(out_lane), avail.to(device), i32(n_phase), i32(n_link),
            i32(cur_phase), i32(elapsed), T_MIN)


def reference(lane_count, in_lane, out_lane, avail, n_phase, n_link, cur_phase, elapsed, t_min):
    n_int, max_p, max_m = avail.shape
    cnt = lane_count.long()
    m_ok = torch.arange(max_m, device=cnt.device)[None, :] < n_link[:, None]
    p_ok = torch.arange(max_p, device=cnt.device)[None, :] < n_phase[:, None]
    d = torch.where(m_ok, cnt[in_lane.long().clamp(min=0)] - cnt[out_lane.long().clamp(min=0)], 0)
    green = (avail != 0) & m_ok[:, None, :] & p_ok[:, :, None]
    pressure = (green.long() * d[:, None, :]).sum(-1)
    best = torch.where(p_ok, pressure, torch.iinfo(torch.int64).min).argmax(1)
    nxt = torch.where(elapsed < t_min, cur_phase.long(), best)
    return nxt.to(torch.int32), pressure.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_int = s["rows"] * s["cols"]
    return {"bytes": n_int * (MAX_P * MAX_M + 2 * 4 * MAX_M + 2 * 4 * MAX_M + 4 * 4 + 4 * (MAX_P + 1)),
            "flops": n_int * MAX_P * MAX_M * 2}
