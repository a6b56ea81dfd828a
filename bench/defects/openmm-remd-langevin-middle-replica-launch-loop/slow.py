"""Langevin middle-scheme step for all replicas of a temperature replica-exchange run, [R, N, 3] fp32."""
import math

import torch
import triton
import triton.language as tl

DT, FRICTION, KB = 0.002, 1.0, 0.008314462618
VSCALE = math.exp(-FRICTION * DT)


@triton.jit
def _langevin_middle_step(pos, vel, force, inv_mass, noise, temperature, pos_out, vel_out,
                          replica, n, dt, vscale, kb, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = offs < n
    idx = replica * n + offs
    kt = kb * tl.load(temperature + replica)
    noise_scale = tl.sqrt(kt * (1.0 - vscale * vscale))
    invm = tl.load(inv_mass + offs // 3, mask=live, other=0.0)
    x = tl.load(pos + idx, mask=live, other=0.0)
    v = tl.load(vel + idx, mask=live, other=0.0)
    f = tl.load(force + idx, mask=live, other=0.0)
    xi = tl.load(noise + idx, mask=live, other=0.0)
    v = v + dt * f * invm
    x = x + 0.5 * dt * v
    v = vscale * v + noise_scale * tl.sqrt(invm) * xi
    x = x + 0.5 * dt * v
    tl.store(pos_out + idx, x, mask=live)
    tl.store(vel_out + idx, v, mask=live)


def run(pos, vel, force, inv_mass, noise, temperature):
    R, N, _ = pos.shape
    pos_out = torch.empty_like(pos)
    vel_out = torch.empty_like(vel)
    n = N * 3
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    for replica in range(R):
        _langevin_middle_step[grid](pos, vel, force, inv_mass, noise, temperature, pos_out, vel_out,
                                    replica, n, DT, VSCALE, KB, BLOCK=BLOCK)
    return pos_out, vel_out
