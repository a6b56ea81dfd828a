"""MPPI rollout cost: unicycle rollout of each control sample and its tracking + effort cost."""
import torch
import triton
import triton.language as tl

W_POS = tl.constexpr(1.0)
W_SPEED = tl.constexpr(0.5)
W_ACC = tl.constexpr(0.1)
W_YAW = tl.constexpr(0.5)
V_TARGET = tl.constexpr(10.0)


@triton.jit
def _stage_cost(px, py, v, acc, yaw, ref_t):
    ex = px - tl.load(ref_t)
    ey = py - tl.load(ref_t + 1)
    ev = v - V_TARGET
    return W_POS * (ex * ex + ey * ey) + W_SPEED * ev * ev + W_ACC * acc * acc + W_YAW * yaw * yaw


@triton.jit
def _rollout_cost(state0, controls, ref_path, cost, T, dt):
    k = tl.program_id(0)
    px = tl.load(state0)
    py = tl.load(state0 + 1)
    th = tl.load(state0 + 2)
    v = tl.load(state0 + 3)
    u = controls + k * (2 * T)
    total = 0.0
    for t in range(0, T):
        acc = tl.load(u + 2 * t)
        yaw = tl.load(u + 2 * t + 1)
        px += v * tl.cos(th) * dt
        py += v * tl.sin(th) * dt
        th += yaw * dt
        v += acc * dt
        total += _stage_cost(px, py, v, acc, yaw, ref_path + 2 * t)
    tl.store(cost + k, total)


def run(state0: torch.Tensor, controls: torch.Tensor, ref_path: torch.Tensor, dt: float) -> torch.Tensor:
    K, T, _ = controls.shape
    cost = torch.empty(K, device=controls.device, dtype=torch.float32)
    _rollout_cost[(K,)](state0, controls, ref_path, cost, T, dt, num_warps=4)
    return cost
