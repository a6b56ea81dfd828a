"""Geometric Brownian motion paths from time-major normals: S[t, p] = S0 * exp(cumsum_t(drift + diffusion * z))."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _log_increment(z, drift, diffusion):
    return drift + diffusion * z


@triton.jit
def gbm_paths_kernel(z_ptr, s_ptr, T, P, s0, drift, diffusion, BLOCK_T: tl.constexpr):
    p = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    m = t < T
    z = tl.load(z_ptr + t * P + p, mask=m, other=0.0)
    log_path = tl.cumsum(_log_increment(z, drift, diffusion), axis=0)
    tl.store(s_ptr + t * P + p, s0 * tl.exp(log_path), mask=m)


def run(z: torch.Tensor, s0: float, rate: float, vol: float, dt: float) -> torch.Tensor:
    T, P = z.shape
    paths = torch.empty_like(z)
    drift = (rate - 0.5 * vol * vol) * dt
    diffusion = vol * math.sqrt(dt)
    meta = {"BLOCK_T": triton.next_power_of_2(T), "num_warps": 4}
    gbm_paths_kernel[(P,)](z, paths, T, P, s0, drift, diffusion, **meta)
    return paths
