"""MPPI rollout cost: unicycle rollout of each control sample and its tracking + effort cost."""
import torch
import triton
import triton.language as tl

W_POS = tl.constexpr(1.0)
W_SPEED = tl.constexpr(0.5)
W_ACC = tl.constexpr(0.1)
W_YAW = tl.constexpr(0.5)
V_TARGET = tl.constexpr(10.0)
BLOCK_K = 8


@triton.jit
def _rollout_cost(state0, controls, ref_path, cost, K, T, dt, BLOCK_K: tl.constexpr, BLOCK_T: tl.constexpr):
    ks = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    ts = tl.arange(0, BLOCK_T)
    k_ok = ks < K
    t_ok = ts < T
    live = k_ok[:, None] & t_ok[None, :]
    u = controls + ks[:, None] * (2 * T) + ts[None, :] * 2
    acc = tl.load(u, mask=live, other=0.0)
    yaw = tl.load(u + 1, mask=live, other=0.0)
    x0 = tl.load(state0)
    y0 = tl.load(state0 + 1)
    th0 = tl.load(state0 + 2)
    v0 = tl.load(state0 + 3)
    v_next = v0 + dt * tl.cumsum(acc, axis=1)
    v = v_next - dt * acc
    th = th0 + dt * (tl.cumsum(yaw, axis=1) - yaw)
    px = x0 + tl.cumsum(v * tl.cos(th) * dt, axis=1)
    py = y0 + tl.cumsum(v * tl.sin(th) * dt, axis=1)
    rx = tl.load(ref_path + ts * 2, mask=t_ok, other=0.0)
    ry = tl.load(ref_path + ts * 2 + 1, mask=t_ok, other=0.0)
    ex = px - rx[None, :]
    ey = py - ry[None, :]
    ev = v_next - V_TARGET
    step = W_POS * (ex * ex + ey * ey) + W_SPEED * ev * ev + W_ACC * acc * acc + W_YAW * yaw * yaw
    step = tl.where(live, step, 0.0)
    tl.store(cost + ks, tl.sum(step, axis=1), mask=k_ok)


def run(state0: torch.Tensor, controls: torch.Tensor, ref_path: torch.Tensor, dt: float) -> torch.Tensor:
    K, T, _ = controls.shape
    cost = torch.empty(K, device=controls.device, dtype=torch.float32)
    grid = (triton.cdiv(K, BLOCK_K),)
    _rollout_cost[grid](state0, controls, ref_path, cost, K, T, dt,
                        BLOCK_K=BLOCK_K, BLOCK_T=triton.next_power_of_2(T), num_warps=4)
    return cost
