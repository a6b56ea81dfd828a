"""FLORIS rotor-effective velocity: cubic mean over the rotor grid, density, yaw and tilt cosine losses."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rotor_eff_velocity(vel, yaw, tilt, out, R, P, inv_p, dens_fac, w_yaw, w_tilt, inv_cos_ref,
                        BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    pts = tl.arange(0, BP)
    pmask = pts < P
    deg = 0.017453292519943295
    for r in range(pid, R, nprog):
        u = tl.load(vel + r * P + pts, mask=pmask, other=0.0)
        m3 = tl.sum(u * u * u, axis=0) * inv_p
        u_avg = tl.exp(tl.log(m3) * (1.0 / 3.0))
        g = tl.load(yaw + r)
        b = tl.load(tilt + r)
        f_yaw = tl.exp(w_yaw * tl.log(tl.cos(g * deg)))
        f_tilt = tl.exp(w_tilt * tl.log(tl.cos(b * deg) * inv_cos_ref))
        tl.store(out + r, u_avg * dens_fac * f_yaw * f_tilt)


def run(velocities, yaw, tilt, air_density, ref_air_density, cos_exp_yaw, cos_exp_tilt, ref_tilt):
    F, T = velocities.shape[0], velocities.shape[1]
    R = F * T
    P = velocities.numel() // R
    out = torch.empty((F, T), device=velocities.device, dtype=velocities.dtype)
    BP = triton.next_power_of_2(P)
    grid = (min(_VECTOR_CORES, R),)
    _rotor_eff_velocity[grid](velocities, yaw, tilt, out, R, P, 1.0 / P,
                              (air_density / ref_air_density) ** (1.0 / 3.0),
                              cos_exp_yaw / 3.0, cos_exp_tilt / 3.0, 1.0 / math.cos(math.radians(ref_tilt)),
                              BP=BP)
    return out
