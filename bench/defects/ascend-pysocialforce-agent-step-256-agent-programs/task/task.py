"""One explicit step of the social force model's agent update (pysocialforce DesiredForce + PedState.step).

Per agent (structure-of-arrays state, [2, N] rows x / y):
    e = (goal - pos) / |goal - pos|
    f_des = (e * v_max - vel) / tau        if |goal - pos| > goal_threshold
            -vel / tau                      otherwise                  (pysocialforce DesiredForce)
    v = vel + dt * (f_des + f_other)         f_other: social + obstacle accelerations, precomputed
    v = v * min(1, v_max / |v|)              speed capped at v_max = 1.3 x the preferred speed
    v = 0                                    if |goal - pos| < stop_radius (arrived)
    pos_new = pos + dt * v,  vel_new = v
Returns (pos_new [2, N], vel_new [2, N]) fp32.
"""
import math

import torch

META = {
    "name": "social_force_agent_step",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 4099},
        "large": {"N": 1000000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 1024 agents: nine contiguous "
                      "loads (pos, vel, goal rows, v_max, f_other rows), desired force, capped velocity and "
                      "arrival stop in registers, four contiguous stores; no autotune.",
    "deterministic": True,
}
DT = 0.4             # s
TAU = 0.5            # s, relaxation time of the desired force
GOAL_THRESHOLD = 0.1  # m
STOP_RADIUS = 0.5    # m


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos, vel, goal [2, N]; v_max [N]; f_other [2, N]; then dt, tau, goal_threshold, stop_radius."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pos = torch.rand(2, n, generator=g) * torch.tensor([[400.0], [200.0]])
    # goals: one of eight exits; a few agents are already at (or next to) theirs
    exits = torch.tensor([[0.0, 400.0, 100.0, 300.0, 0.0, 400.0, 200.0, 200.0],
                          [100.0, 100.0, 0.0, 200.0, 20.0, 180.0, 0.0, 200.0]])
    goal = exits[:, torch.randint(0, 8, (n,), generator=g)]
    near = torch.rand(n, generator=g) < 0.05
    goal[:, near] = pos[:, near] + (torch.rand(2, int(near.sum()), generator=g) - 0.5) * 1.2
    pref = 1.34 + 0.26 * torch.randn(n, generator=g)
    v_max = 1.3 * pref.clamp(0.5, 2.2)
    ang = torch.rand(n, generator=g) * 2 * math.pi
    spd = torch.rand(n, generator=g) * 1.6
    vel = torch.stack([spd * torch.cos(ang), spd * torch.sin(ang)])
    f_other = torch.randn(2, n, generator=g) * 1.5
    return (pos.to(dt).to(device), vel.to(dt).to(device), goal.to(dt).to(device), v_max.to(dt).to(device),
            f_other.to(dt).to(device), DT, TAU, GOAL_THRESHOLD, STOP_RADIUS)


def reference(pos, vel, goal, v_max, f_other, dt, tau, goal_threshold, stop_radius) -> tuple:
    p, v, gl, vm, fo = pos.double(), vel.double(), goal.double(), v_max.double(), f_other.double()
    diff = gl - p
    dist = diff.norm(dim=0)
    e = diff / dist.clamp(min=1e-12)
    f_des = torch.where(dist > goal_threshold, e * vm - v, -v) / tau
    nv = v + dt * (f_des + fo)
    speed = nv.norm(dim=0)
    nv = nv * torch.where(speed > vm, vm / speed.clamp(min=1e-12), torch.ones_like(speed))
    nv = torch.where(dist < stop_radius, torch.zeros_like(nv), nv)
    return (p + dt * nv).to(pos.dtype), nv.to(vel.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 52 * n, "flops": 40 * n}
