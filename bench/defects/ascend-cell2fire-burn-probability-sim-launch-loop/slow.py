"""Burn probability over a replication ensemble: the fraction of replications whose scar covers each cell."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _add_scar(scars, counts, sim, n_cells, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    base = sim * n_cells
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n_cells
        burned = tl.load(scars + base + offs, mask=m, other=0).to(tl.float32)
        c = tl.load(counts + offs, mask=m, other=0.0)
        tl.store(counts + offs, c + burned, mask=m)


@triton.jit
def _normalize(counts, bp, n_cells, inv_sims, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n_cells
        c = tl.load(counts + offs, mask=m, other=0.0)
        tl.store(bp + offs, c * inv_sims, mask=m)


def run(scars: torch.Tensor) -> torch.Tensor:
    n_sims, H, W = scars.shape
    n_cells = H * W
    counts = torch.zeros(n_cells, device=scars.device, dtype=torch.float32)
    bp = torch.empty((H, W), device=scars.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_cells, BLOCK)),)
    for sim in range(n_sims):
        _add_scar[grid](scars, counts, sim, n_cells, BLOCK=BLOCK)
    _normalize[grid](counts, bp, n_cells, 1.0 / n_sims, BLOCK=BLOCK)
    return bp
