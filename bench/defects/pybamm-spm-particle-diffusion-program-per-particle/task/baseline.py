"""Fickian diffusion in spherical particles: one explicit finite-volume step over R radial shells."""
import torch
import triton
import triton.language as tl

BLOCK_P = 64


@triton.jit
def _particle_step(theta, radius, diff, flux, theta_out, avg_out, surf_out, n_particles, n_shells, dt,
                   BLOCK_P: tl.constexpr, BLOCK_R: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    i = tl.arange(0, BLOCK_R)
    has_p = p < n_particles
    in_particle = has_p[:, None] & (i < n_shells)[None, :]
    row = theta + p[:, None] * n_shells
    rp = tl.load(radius + p, mask=has_p, other=1.0)
    d = tl.load(diff + p, mask=has_p, other=1.0)
    f = tl.load(flux + p, mask=has_p, other=0.0)
    dr = rp / n_shells
    fi = i.to(tl.float32)[None, :]
    vol = (fi + 1.0) * (fi + 1.0) * (fi + 1.0) - fi * fi * fi
    c = tl.load(row + i[None, :], mask=in_particle, other=0.0)
    c_in = tl.load(row + i[None, :] - 1, mask=in_particle & (i > 0)[None, :], other=0.0)
    c_out = tl.load(row + i[None, :] + 1, mask=has_p[:, None] & (i < n_shells - 1)[None, :], other=0.0)
    surface = (i == n_shells - 1)[None, :]
    outer = tl.where(surface, (-(n_shells * n_shells) * dr * f / d)[:, None], (fi + 1.0) * (fi + 1.0) * (c_out - c))
    inner = tl.where((i > 0)[None, :], fi * fi * (c - c_in), 0.0)
    c_new = c + dt * 3.0 * d[:, None] / ((dr * dr)[:, None] * vol) * (outer - inner)
    tl.store(theta_out + p[:, None] * n_shells + i[None, :], c_new, mask=in_particle)
    avg = tl.sum(tl.where(in_particle, c_new * vol, 0.0), axis=1) / (n_shells * n_shells * n_shells)
    c_surf = tl.sum(tl.where(surface, c_new, 0.0), axis=1) - 0.5 * dr * f / d
    tl.store(avg_out + p, avg, mask=has_p)
    tl.store(surf_out + p, c_surf, mask=has_p)


def run(theta, radius, diff, flux, dt) -> tuple:
    n_particles, n_shells = theta.shape
    theta_out = torch.empty_like(theta)
    avg = torch.empty(n_particles, device=theta.device, dtype=theta.dtype)
    surf = torch.empty(n_particles, device=theta.device, dtype=theta.dtype)
    _particle_step[(triton.cdiv(n_particles, BLOCK_P),)](theta, radius, diff, flux, theta_out, avg, surf,
                                                        n_particles, n_shells, dt, BLOCK_P=BLOCK_P,
                                                        BLOCK_R=triton.next_power_of_2(n_shells))
    return theta_out, avg, surf
