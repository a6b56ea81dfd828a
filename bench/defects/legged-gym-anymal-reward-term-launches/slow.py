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
def _add_term(rew, env, live, value):
    tl.store(rew + env, tl.load(rew + env, mask=live, other=0.0) + value, mask=live)


@triton.jit
def _tracking_term(rew, commands, vel, n, col0, ncols, scale, sigma, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    env, live = _envs(n, BLOCK)
    c = tl.arange(0, BLOCK_C)
    m = live[:, None] & (c < ncols)[None, :]
    err = tl.load(commands + env[:, None] * 4 + col0 + c[None, :], mask=m, other=0.0) \
        - tl.load(vel + env[:, None] * 3 + col0 + c[None, :], mask=m, other=0.0)
    _add_term(rew, env, live, scale * tl.exp(-tl.sum(err * err, axis=1) / sigma))


@triton.jit
def _square_term(rew, x, n, stride, col0, ncols, scale, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    env, live = _envs(n, BLOCK)
    c = tl.arange(0, BLOCK_C)
    v = tl.load(x + env[:, None] * stride + col0 + c[None, :], mask=live[:, None] & (c < ncols)[None, :], other=0.0)
    _add_term(rew, env, live, scale * tl.sum(v * v, axis=1))


@triton.jit
def _change_term(rew, last, now, n, ncols, scale, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    env, live = _envs(n, BLOCK)
    c = tl.arange(0, BLOCK_C)
    m = live[:, None] & (c < ncols)[None, :]
    offs = env[:, None] * ncols + c[None, :]
    v = tl.load(last + offs, mask=m, other=0.0) - tl.load(now + offs, mask=m, other=0.0)
    _add_term(rew, env, live, scale * tl.sum(v * v, axis=1))


@triton.jit
def _collision_term(rew, forces, penalised, n, n_bodies, n_pen, scale, BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    env, live = _envs(n, BLOCK)
    p = tl.arange(0, BLOCK_P)
    body = tl.load(penalised + p, mask=p < n_pen, other=0)
    m = live[:, None] & (p < n_pen)[None, :]
    f = forces + (env[:, None] * n_bodies + body[None, :]) * 3
    fx = tl.load(f, mask=m, other=0.0)
    fy = tl.load(f + 1, mask=m, other=0.0)
    fz = tl.load(f + 2, mask=m, other=0.0)
    hits = tl.where(fx * fx + fy * fy + fz * fz > 0.01, 1.0, 0.0)
    _add_term(rew, env, live, scale * tl.sum(hits, axis=1))


@triton.jit
def _limits_term(rew, dof_pos, limits, n, ncols, scale, BLOCK: tl.constexpr, BLOCK_C: tl.constexpr):
    env, live = _envs(n, BLOCK)
    c = tl.arange(0, BLOCK_C)
    q = tl.load(dof_pos + env[:, None] * ncols + c[None, :], mask=live[:, None] & (c < ncols)[None, :], other=0.0)
    lo = tl.load(limits + 2 * c, mask=c < ncols, other=0.0)
    hi = tl.load(limits + 2 * c + 1, mask=c < ncols, other=0.0)
    out = tl.maximum(lo[None, :] - q, 0.0) + tl.maximum(q - hi[None, :], 0.0)
    _add_term(rew, env, live, scale * tl.sum(out, axis=1))


@triton.jit
def _clip_positive(rew, n, BLOCK: tl.constexpr):
    env, live = _envs(n, BLOCK)
    tl.store(rew + env, tl.maximum(tl.load(rew + env, mask=live, other=0.0), 0.0), mask=live)


def run(commands, base_lin_vel, base_ang_vel, projected_gravity, dof_pos, dof_vel, last_dof_vel, torques,
        actions, last_actions, contact_forces, penalised, dof_pos_limits):
    E, n_dof = dof_pos.shape
    s = {name: scale * DT for name, scale in SCALES.items()}
    rew = torch.zeros(E, device=dof_pos.device, dtype=torch.float32)
    grid = (triton.cdiv(E, BLOCK),)
    dofs = triton.next_power_of_2(n_dof)
    _tracking_term[grid](rew, commands, base_lin_vel, E, 0, 2, s["tracking_lin_vel"], SIGMA, BLOCK=BLOCK, BLOCK_C=2)
    _tracking_term[grid](rew, commands, base_ang_vel, E, 2, 1, s["tracking_ang_vel"], SIGMA, BLOCK=BLOCK, BLOCK_C=2)
    _square_term[grid](rew, base_lin_vel, E, 3, 2, 1, s["lin_vel_z"], BLOCK=BLOCK, BLOCK_C=2)
    _square_term[grid](rew, base_ang_vel, E, 3, 0, 2, s["ang_vel_xy"], BLOCK=BLOCK, BLOCK_C=2)
    _square_term[grid](rew, projected_gravity, E, 3, 0, 2, s["orientation"], BLOCK=BLOCK, BLOCK_C=2)
    _square_term[grid](rew, torques, E, n_dof, 0, n_dof, s["torques"], BLOCK=BLOCK, BLOCK_C=dofs)
    _change_term[grid](rew, last_dof_vel, dof_vel, E, n_dof, s["dof_acc"] / (DT * DT), BLOCK=BLOCK, BLOCK_C=dofs)
    _change_term[grid](rew, last_actions, actions, E, n_dof, s["action_rate"], BLOCK=BLOCK, BLOCK_C=dofs)
    _collision_term[grid](rew, contact_forces, penalised, E, contact_forces.shape[1], penalised.shape[0],
                          s["collision"], BLOCK=BLOCK, BLOCK_P=triton.next_power_of_2(penalised.shape[0]))
    _limits_term[grid](rew, dof_pos, dof_pos_limits, E, n_dof, s["dof_pos_limits"], BLOCK=BLOCK, BLOCK_C=dofs)
    _clip_positive[grid](rew, E, BLOCK=BLOCK)
    return rew
