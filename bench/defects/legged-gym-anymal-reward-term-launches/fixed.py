"""Legged-locomotion reward (legged_gym compute_reward): scaled sum of ten terms per environment, clipped at 0."""
import torch
import triton
import triton.language as tl

DT = 0.02
SIGMA = 0.25
SCALES = {"tracking_lin_vel": 1.0, "tracking_ang_vel": 0.5, "lin_vel_z": -2.0, "ang_vel_xy": -0.05,
          "orientation": -0.2, "torques": -1e-5, "dof_acc": -2.5e-7, "action_rate": -0.01,
          "collision": -1.0, "dof_pos_limits": -10.0}
BLOCK = 128


@triton.jit
def _envs(n, BLOCK: tl.constexpr):
    env = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    return env, env < n


@triton.jit
def _tracking(commands, vel, env, live, col0, ncols, sigma, BLOCK_C: tl.constexpr):
    c = tl.arange(0, BLOCK_C)
    m = live[:, None] & (c < ncols)[None, :]
    err = tl.load(commands + env[:, None] * 4 + col0 + c[None, :], mask=m, other=0.0) \
        - tl.load(vel + env[:, None] * 3 + col0 + c[None, :], mask=m, other=0.0)
    return tl.exp(-tl.sum(err * err, axis=1) / sigma)


@triton.jit
def _square_sum(x, env, live, stride, col0, ncols, BLOCK_C: tl.constexpr):
    c = tl.arange(0, BLOCK_C)
    v = tl.load(x + env[:, None] * stride + col0 + c[None, :], mask=live[:, None] & (c < ncols)[None, :], other=0.0)
    return tl.sum(v * v, axis=1)


@triton.jit
def _change_sum(last, now, env, live, ncols, BLOCK_C: tl.constexpr):
    c = tl.arange(0, BLOCK_C)
    m = live[:, None] & (c < ncols)[None, :]
    offs = env[:, None] * ncols + c[None, :]
    v = tl.load(last + offs, mask=m, other=0.0) - tl.load(now + offs, mask=m, other=0.0)
    return tl.sum(v * v, axis=1)


@triton.jit
def _collisions(forces, penalised, env, live, n_bodies, n_pen, BLOCK_P: tl.constexpr):
    p = tl.arange(0, BLOCK_P)
    body = tl.load(penalised + p, mask=p < n_pen, other=0)
    m = live[:, None] & (p < n_pen)[None, :]
    f = forces + (env[:, None] * n_bodies + body[None, :]) * 3
    fx = tl.load(f, mask=m, other=0.0)
    fy = tl.load(f + 1, mask=m, other=0.0)
    fz = tl.load(f + 2, mask=m, other=0.0)
    return tl.sum(tl.where(fx * fx + fy * fy + fz * fz > 0.01, 1.0, 0.0), axis=1)


@triton.jit
def _limit_violation(dof_pos, limits, env, live, ncols, BLOCK_C: tl.constexpr):
    c = tl.arange(0, BLOCK_C)
    q = tl.load(dof_pos + env[:, None] * ncols + c[None, :], mask=live[:, None] & (c < ncols)[None, :], other=0.0)
    lo = tl.load(limits + 2 * c, mask=c < ncols, other=0.0)
    hi = tl.load(limits + 2 * c + 1, mask=c < ncols, other=0.0)
    return tl.sum(tl.maximum(lo[None, :] - q, 0.0) + tl.maximum(q - hi[None, :], 0.0), axis=1)


@triton.jit
def _legged_reward(rew, commands, lin_vel, ang_vel, gravity, dof_pos, dof_vel, last_dof_vel, torques, actions,
                   last_actions, forces, penalised, limits, n, n_dof, n_bodies, n_pen,
                   s_lin, s_ang, s_vz, s_wxy, s_ori, s_tau, s_acc, s_rate, s_col, s_lim, sigma,
                   BLOCK: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    env, live = _envs(n, BLOCK)
    total = s_lin * _tracking(commands, lin_vel, env, live, 0, 2, sigma, 2)
    total += s_ang * _tracking(commands, ang_vel, env, live, 2, 1, sigma, 2)
    total += s_vz * _square_sum(lin_vel, env, live, 3, 2, 1, 2)
    total += s_wxy * _square_sum(ang_vel, env, live, 3, 0, 2, 2)
    total += s_ori * _square_sum(gravity, env, live, 3, 0, 2, 2)
    total += s_tau * _square_sum(torques, env, live, n_dof, 0, n_dof, BLOCK_C)
    total += s_acc * _change_sum(last_dof_vel, dof_vel, env, live, n_dof, BLOCK_C)
    total += s_rate * _change_sum(last_actions, actions, env, live, n_dof, BLOCK_C)
    total += s_col * _collisions(forces, penalised, env, live, n_bodies, n_pen, BLOCK_P)
    total += s_lim * _limit_violation(dof_pos, limits, env, live, n_dof, BLOCK_C)
    tl.store(rew + env, tl.maximum(total, 0.0), mask=live)


def run(commands, base_lin_vel, base_ang_vel, projected_gravity, dof_pos, dof_vel, last_dof_vel, torques,
        actions, last_actions, contact_forces, penalised, dof_pos_limits):
    E, n_dof = dof_pos.shape
    s = {name: scale * DT for name, scale in SCALES.items()}
    rew = torch.empty(E, device=dof_pos.device, dtype=torch.float32)
    _legged_reward[(triton.cdiv(E, BLOCK),)](
        rew, commands, base_lin_vel, base_ang_vel, projected_gravity, dof_pos, dof_vel, last_dof_vel, torques,
        actions, last_actions, contact_forces, penalised, dof_pos_limits, E, n_dof, contact_forces.shape[1],
        penalised.shape[0], s["tracking_lin_vel"], s["tracking_ang_vel"], s["lin_vel_z"], s["ang_vel_xy"],
        s["orientation"], s["torques"], s["dof_acc"] / (DT * DT), s["action_rate"], s["collision"],
        s["dof_pos_limits"], SIGMA, BLOCK=BLOCK, BLOCK_C=triton.next_power_of_2(n_dof),
        BLOCK_P=triton.next_power_of_2(penalised.shape[0]))
    return rew
