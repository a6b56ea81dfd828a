"""Burn probability over a replication ensemble: the fraction of replications whose scar covers each cell."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _burn_probability(scars, bp, n_sims, n_cells, inv_sims, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n_cells
        c = tl.zeros([BLOCK], dtype=tl.float32)
        for sim in range(n_sims):
            burned = tl.load(scars + sim * n_cells + offs, mask=m, other=0).to(tl.float32)
            c += burned
        tl.store(bp + offs, c * inv_sims, mask=m)


def run(scars: torch.Tensor) -> torch.Tensor:
    n_sims, H, W = scars.shape
    n_cells = H * W
    bp = torch.empty((H, W), device=scars.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_cells, BLOCK)),)
    _burn_probability[grid](scars, bp, n_sims, n_cells, 1.0 / n_sims, BLOCK=BLOCK)
    return bp
