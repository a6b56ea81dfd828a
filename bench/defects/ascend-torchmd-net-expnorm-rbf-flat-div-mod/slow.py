"""TorchMD-Net ExpNormalSmearing x CosineCutoff: [E] pair distances -> [E, num_rbf] radial features."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _expnorm_rbf(dist, means, betas, out, E, R, alpha, lower, upper, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = E * R
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < total
        e = offs // R
        k = offs % R
        d = tl.load(dist + e, mask=mask, other=0.0)
        mu = tl.load(means + k, mask=mask, other=0.0)
        beta = tl.load(betas + k, mask=mask, other=0.0)
        env = 0.5 * (tl.cos(d * (math.pi / upper)) + 1.0)
        env = tl.where(d < upper, env, 0.0)
        t = tl.exp(alpha * (lower - d)) - mu
        tl.store(out + offs, env * tl.exp(-beta * t * t), mask=mask)


def run(dist: torch.Tensor, means: torch.Tensor, betas: torch.Tensor,
        cutoff_lower: float, cutoff_upper: float) -> torch.Tensor:
    E = dist.shape[0]
    R = means.shape[0]
    out = torch.empty((E, R), device=dist.device, dtype=dist.dtype)
    BLOCK = 64 * triton.next_power_of_2(R)
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(E * R, BLOCK))),)
    _expnorm_rbf[grid](dist, means, betas, out, E, R, 5.0 / (cutoff_upper - cutoff_lower),
                       cutoff_lower, cutoff_upper, BLOCK=BLOCK)
    return out
