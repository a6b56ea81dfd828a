"""Gaussian smearing of edge distances: out[e, k] = exp(coeff * (d_e - mu_k)^2), persistent programs."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _gaussian_smearing(dist, offset, out, E, K, coeff, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK_E)
    for start in range(pid * BLOCK_E, E, nprog * BLOCK_E):
        e = start + lanes
        live = e < E
        d = tl.load(dist + e, mask=live, other=0.0)
        for k in range(0, K):
            mu = tl.load(offset + k)
            diff = d - mu
            tl.store(out + e * K + k, tl.exp(coeff * diff * diff), mask=live)


def run(dist: torch.Tensor, offset: torch.Tensor, coeff: float) -> torch.Tensor:
    E, K = dist.shape[0], offset.shape[0]
    out = torch.empty((E, K), device=dist.device, dtype=dist.dtype)
    BLOCK_E = 1024
    grid = (max(1, min(VECTOR_CORES, triton.cdiv(E, BLOCK_E))),)
    _gaussian_smearing[grid](dist, offset, out, E, K, coeff, BLOCK_E=BLOCK_E)
    return out
