"""TorchMD-Net ExpNormalSmearing x CosineCutoff: [E] pair distances -> [E, num_rbf] radial features."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _expnorm_rbf(dist, means, betas, out, E, R, alpha, lower, upper,
                 BE: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    k = tl.arange(0, BR)
    kmask = k < R
    mu = tl.load(means + k, mask=kmask, other=0.0)
    beta = tl.load(betas + k, mask=kmask, other=0.0)
    for blk in range(pid, tl.cdiv(E, BE), nprog):
        e = blk * BE + tl.arange(0, BE)
        emask = e < E
        d = tl.load(dist + e, mask=emask, other=0.0)
        env = 0.5 * (tl.cos(d * (math.pi / upper)) + 1.0)
        env = tl.where(d < upper, env, 0.0)
        t = tl.exp(alpha * (lower - d))[:, None] - mu[None, :]
        y = env[:, None] * tl.exp(-beta[None, :] * t * t)
        tl.store(out + e[:, None] * R + k[None, :], y, mask=emask[:, None] & kmask[None, :])


def run(dist: torch.Tensor, means: torch.Tensor, betas: torch.Tensor,
        cutoff_lower: float, cutoff_upper: float) -> torch.Tensor:
    E = dist.shape[0]
    R = means.shape[0]
    out = torch.empty((E, R), device=dist.device, dtype=dist.dtype)
    BR = triton.next_power_of_2(R)
    BE = 64
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(E, BE))),)
    _expnorm_rbf[grid](dist, means, betas, out, E, R, 5.0 / (cutoff_upper - cutoff_lower),
                       cutoff_lower, cutoff_upper, BE=BE, BR=BR)
    return out
