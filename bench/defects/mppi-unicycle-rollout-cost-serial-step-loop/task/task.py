"""MPPI rollout cost: integrate every sampled control sequence through a unicycle model and score it.

As in MPPI path-tracking controllers (MPPI-Generic, pytorch_mppi, Autoware's sampling MPC): K control
samples u[k, t] = (acceleration, yaw rate) over a horizon of T steps of dt are rolled out from the shared
ego state (x, y, theta, v) with explicit Euler,
    x += v cos(theta) dt,  y += v sin(theta) dt,  theta += yaw_rate dt,  v += accel dt,
and each sample's cost is sum_t  W_POS |p_{t+1} - ref_t|^2 + W_SPEED (v_{t+1} - V_TARGET)^2
+ W_ACC accel_t^2 + W_YAW yaw_rate_t^2.
"""
import math

import torch

META = {
    "name": "mppi_unicycle_rollout_cost",
    "level": 2,
    "category": "planning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"K": 24, "T": 30},
        "ragged": {"K": 37, "T": 51},
        "large": {"K": 16384, "T": 100},
    },
    "baseline_notes": "8 samples per program, the horizon as one next_power_of_2(T) tile per sample: loads the "
                      "controls, integrates speed and heading with tl.cumsum, then the position steps with a second "
                      "tl.cumsum, evaluates every step's cost and sums it; 4 warps, no autotune.",
    "deterministic": True,
}

DT = 0.05
W_POS, W_SPEED, W_ACC, W_YAW, V_TARGET = 1.0, 0.5, 0.1, 0.5, 10.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state0 [4] (x, y, theta, v), controls [K, T, 2] (accel, yaw rate), ref_path [T, 2], dt (float)."""
    s = META["sizes"][size]
    K, T = s["K"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    state0 = torch.tensor([1.5, -0.8, 0.3, 8.0])
    nominal = torch.stack([torch.full((T,), 0.5), 0.2 * torch.sin(torch.linspace(0, math.pi, T))], 1)
    noise = torch.randn(K, T, 2, generator=g) * torch.tensor([1.0, 0.3])
    controls = nominal[None] + noise
    arc = V_TARGET * DT * torch.arange(1, T + 1)
    ref_path = torch.stack([arc * math.cos(0.35), arc * math.sin(0.35) + 0.02 * arc ** 1.5], 1)
    return state0.to(dt).to(device), controls.to(dt).to(device), ref_path.to(dt).to(device), DT


def reference(state0, controls, ref_path, dt):
    u = controls.double()
    K, T, _ = u.shape
    px = torch.full((K,), float(state0[0]), dtype=torch.float64, device=u.device)
    py, th, v = px * 0 + float(state0[1]), px * 0 + float(state0[2]), px * 0 + float(state0[3])
    total = torch.zeros(K, dtype=torch.float64, device=u.device)
    ref = ref_path.double()
    for t in range(T):
        acc, yaw = u[:, t, 0], u[:, t, 1]
        px, py = px + v * torch.cos(th) * dt, py + v * torch.sin(th) * dt
        th, v = th + yaw * dt, v + acc * dt
        total += W_POS * ((px - ref[t, 0]) ** 2 + (py - ref[t, 1]) ** 2) + W_SPEED * (v - V_TARGET) ** 2
        total += W_ACC * acc ** 2 + W_YAW * yaw ** 2
    return total.to(controls.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["K"] * s["T"] + 8 * s["T"] + 4 * s["K"] + 16, "flops": 40 * s["K"] * s["T"]}
