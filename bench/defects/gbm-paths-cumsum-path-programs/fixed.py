"""Geometric Brownian motion paths from time-major normals: S[t, p] = S0 * exp(cumsum_t(drift + diffusion * z))."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _log_increment(z, drift, diffusion):
    return drift + diffusion * z


@triton.jit
def gbm_paths_kernel(z_ptr, s_ptr, T, P, s0, drift, diffusion, BLOCK_T: tl.constexpr, BLOCK_P: tl.constexpr):
    pb = tl.program_id(0)
    p = pb * BLOCK_P + tl.arange(0, BLOCK_P)
    pmask = p < P
    carry = tl.zeros([BLOCK_P], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        m = (t < T)[:, None] & pmask[None, :]
        offs = t[:, None] * P + p[None, :]
        z = tl.load(z_ptr + offs, mask=m, other=0.0)
        inc = tl.where(m, _log_increment(z, drift, diffusion), 0.0)
        log_path = carry[None, :] + tl.cumsum(inc, axis=0)
        tl.store(s_ptr + offs, s0 * tl.exp(log_path), mask=m)
        carry += tl.sum(inc, axis=0)


def run(z: torch.Tensor, s0: float, rate: float, vol: float, dt: float) -> torch.Tensor:
    T, P = z.shape
    paths = torch.empty_like(z)
    drift = (rate - 0.5 * vol * vol) * dt
    diffusion = vol * math.sqrt(dt)
    meta = {"BLOCK_T": 16, "BLOCK_P": 128, "num_warps": 4}
    gbm_paths_kernel[(triton.cdiv(P, meta["BLOCK_P"]),)](z, paths, T, P, s0, drift, diffusion, **meta)
    return paths
