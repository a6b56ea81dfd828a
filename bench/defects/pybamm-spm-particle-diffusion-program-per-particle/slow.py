"""Fickian diffusion in spherical particles: one explicit finite-volume step over R radial shells."""
import torch
import triton
import triton.language as tl


@triton.jit
def _particle_step(theta, radius, diff, flux, theta_out, avg_out, surf_out, n_shells, dt,
                   BLOCK_R: tl.constexpr):
    p = tl.program_id(0)
    i = tl.arange(0, BLOCK_R)
    in_particle = i < n_shells
    row = theta + p * n_shells
    rp = tl.load(radius + p)
    d = tl.load(diff + p)
    f = tl.load(flux + p)
    dr = rp / n_shells
    fi = i.to(tl.float32)
    vol = (fi + 1.0) * (fi + 1.0) * (fi + 1.0) - fi * fi * fi
    c = tl.load(row + i, mask=in_particle, other=0.0)
    c_in = tl.load(row + i - 1, mask=in_particle & (i > 0), other=0.0)
    c_out = tl.load(row + i + 1, mask=i < n_shells - 1, other=0.0)
    surface = i == n_shells - 1
    outer = tl.where(surface, -(n_shells * n_shells) * dr * f / d, (fi + 1.0) * (fi + 1.0) * (c_out - c))
    inner = tl.where(i > 0, fi * fi * (c - c_in), 0.0)
    c_new = c + dt * 3.0 * d / (dr * dr * vol) * (outer - inner)
    tl.store(theta_out + p * n_shells + i, c_new, mask=in_particle)
    avg = tl.sum(tl.where(in_particle, c_new * vol, 0.0), axis=0) / (n_shells * n_shells * n_shells)
    c_surf = tl.sum(tl.where(surface, c_new, 0.0), axis=0) - 0.5 * dr * f / d
    tl.store(avg_out + p, avg)
    tl.store(surf_out + p, c_surf)


def run(theta, radius, diff, flux, dt) -> tuple:
    n_particles, n_shells = theta.shape
    theta_out = torch.empty_like(theta)
    avg = torch.empty(n_particles, device=theta.device, dtype=theta.dtype)
    surf = torch.empty(n_particles, device=theta.device, dtype=theta.dtype)
    _particle_step[(n_particles,)](theta, radius, diff, flux, theta_out, avg, surf, n_shells, dt,
                                   BLOCK_R=triton.next_power_of_2(n_shells))
    return theta_out, avg, surf
