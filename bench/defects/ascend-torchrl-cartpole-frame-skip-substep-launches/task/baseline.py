"""Batched CartPole-v1 step with frame skip: all substeps of the action repeat in one launch."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40

GRAVITY = tl.constexpr(9.8)
MASSPOLE = tl.constexpr(0.1)
TOTAL_MASS = tl.constexpr(1.1)
LENGTH = tl.constexpr(0.5)
POLEMASS_LENGTH = tl.constexpr(0.05)
FORCE_MAG = tl.constexpr(10.0)
TAU = tl.constexpr(0.02)
THETA_THRESHOLD = tl.constexpr(12 * 2 * math.pi / 360)
X_THRESHOLD = tl.constexpr(2.4)


@triton.jit
def _euler_substep(x, x_dot, theta, theta_dot, force, alive, reward):
    costh = tl.cos(theta)
    sinth = tl.sin(theta)
    temp = (force + POLEMASS_LENGTH * theta_dot * theta_dot * sinth) / TOTAL_MASS
    thetaacc = (GRAVITY * sinth - costh * temp) / (LENGTH * (4.0 / 3.0 - MASSPOLE * costh * costh / TOTAL_MASS))
    xacc = temp - POLEMASS_LENGTH * thetaacc * costh / TOTAL_MASS
    nx = x + TAU * x_dot
    nxd = x_dot + TAU * xacc
    nth = theta + TAU * theta_dot
    nthd = theta_dot + TAU * thetaacc
    reward = reward + alive
    running = alive > 0.5
    fell = (tl.abs(nx) > X_THRESHOLD) | (tl.abs(nth) > THETA_THRESHOLD)
    x = tl.where(running, nx, x)
    x_dot = tl.where(running, nxd, x_dot)
    theta = tl.where(running, nth, theta)
    theta_dot = tl.where(running, nthd, theta_dot)
    alive = tl.where(running & fell, 0.0, alive)
    return x, x_dot, theta, theta_dot, alive, reward


@triton.jit
def _cartpole_frame_skip(state, action, out, reward_out, done_out, E,
                         FRAME_SKIP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(E, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < E
        x = tl.load(state + offs, mask=m, other=0.0)
        x_dot = tl.load(state + E + offs, mask=m, other=0.0)
        theta = tl.load(state + 2 * E + offs, mask=m, other=0.0)
        theta_dot = tl.load(state + 3 * E + offs, mask=m, other=0.0)
        force = tl.load(action + offs, mask=m, other=0).to(tl.float32) * (2.0 * FORCE_MAG) - FORCE_MAG
        alive = tl.full([BLOCK], 1.0, tl.float32)
        reward = tl.zeros([BLOCK], dtype=tl.float32)
        for _ in tl.static_range(FRAME_SKIP):
            x, x_dot, theta, theta_dot, alive, reward = _euler_substep(
                x, x_dot, theta, theta_dot, force, alive, reward)
        tl.store(out + offs, x, mask=m)
        tl.store(out + E + offs, x_dot, mask=m)
        tl.store(out + 2 * E + offs, theta, mask=m)
        tl.store(out + 3 * E + offs, theta_dot, mask=m)
        tl.store(reward_out + offs, reward, mask=m)
        tl.store(done_out + offs, (alive < 0.5).to(tl.uint8), mask=m)


def run(state: torch.Tensor, action: torch.Tensor, frame_skip: int) -> tuple:
    E = state.shape[1]
    out = torch.empty_like(state)
    reward = torch.empty((E,), device=state.device, dtype=state.dtype)
    done = torch.empty((E,), device=state.device, dtype=torch.bool)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(E, BLOCK)),)
    _cartpole_frame_skip[grid](state, action, out, reward, done.view(torch.uint8), E,
                               FRAME_SKIP=frame_skip, BLOCK=BLOCK)
    return out, reward, done
