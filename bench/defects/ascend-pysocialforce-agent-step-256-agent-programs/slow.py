"""Social force model agent update: desired force, explicit velocity step, speed cap, arrival stop."""
import torch
import triton
import triton.language as tl

BLOCK = 256  # one agent per thread, 256 threads per block, as in the CUDA agent-update kernels


@triton.jit
def _agent_step(pos, vel, goal, v_max, f_other, pos_out, vel_out, n, dt, inv_tau, goal_threshold,
                stop_radius, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    px = tl.load(pos + i, mask=m, other=0.0)
    py = tl.load(pos + n + i, mask=m, other=0.0)
    vx = tl.load(vel + i, mask=m, other=0.0)
    vy = tl.load(vel + n + i, mask=m, other=0.0)
    gx = tl.load(goal + i, mask=m, other=0.0)
    gy = tl.load(goal + n + i, mask=m, other=0.0)
    vm = tl.load(v_max + i, mask=m, other=1.0)
    fx = tl.load(f_other + i, mask=m, other=0.0)
    fy = tl.load(f_other + n + i, mask=m, other=0.0)
    dx = gx - px
    dy = gy - py
    dist = tl.sqrt(dx * dx + dy * dy)
    inv_dist = 1.0 / tl.maximum(dist, 1e-12)
    walking = dist > goal_threshold
    ax = tl.where(walking, dx * inv_dist * vm - vx, -vx) * inv_tau + fx
    ay = tl.where(walking, dy * inv_dist * vm - vy, -vy) * inv_tau + fy
    nvx = vx + dt * ax
    nvy = vy + dt * ay
    speed = tl.sqrt(nvx * nvx + nvy * nvy)
    scale = tl.where(speed > vm, vm / tl.maximum(speed, 1e-12), 1.0)
    scale = tl.where(dist < stop_radius, 0.0, scale)
    nvx = nvx * scale
    nvy = nvy * scale
    tl.store(pos_out + i, px + dt * nvx, mask=m)
    tl.store(pos_out + n + i, py + dt * nvy, mask=m)
    tl.store(vel_out + i, nvx, mask=m)
    tl.store(vel_out + n + i, nvy, mask=m)


def run(pos, vel, goal, v_max, f_other, dt, tau, goal_threshold, stop_radius):
    n = pos.shape[1]
    pos_out = torch.empty_like(pos)
    vel_out = torch.empty_like(vel)
    grid = (triton.cdiv(n, BLOCK),)
    _agent_step[grid](pos, vel, goal, v_max, f_other, pos_out, vel_out, n, dt, 1.0 / tau, goal_threshold,
                      stop_radius, BLOCK=BLOCK)
    return pos_out, vel_out
