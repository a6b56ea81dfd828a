"""Sampler preprocessing: inclusive prefix sum of |amplitude|^2 over each statevector of a batch."""
import torch
import triton
import triton.language as tl

TILE = 2048


@triton.jit
def _abs2_cdf(psi, cdf, dim, TILE: tl.constexpr):
    sv = tl.program_id(0)
    src = psi + sv * dim * 2
    dst = cdf + sv * dim
    rows = tl.arange(0, TILE)
    parts = tl.arange(0, 2)
    running = tl.zeros([], dtype=tl.float32)
    for start in range(0, dim, TILE):
        idx = start + rows
        amp = tl.load(src + idx[:, None] * 2 + parts[None, :])
        prob = tl.sum(amp * amp, axis=1)
        tl.store(dst + idx, running + tl.cumsum(prob, axis=0))
        running += tl.sum(prob, axis=0)


def run(psi: torch.Tensor) -> torch.Tensor:
    B, dim, _ = psi.shape
    tile = min(TILE, dim)
    cdf = torch.empty((B, dim), device=psi.device, dtype=psi.dtype)
    _abs2_cdf[(B,)](psi, cdf, dim, TILE=tile, num_warps=4)
    return cdf
