"""Per-cell QC metrics (total_counts, n_genes_by_counts) over a CSR count matrix."""
import torch
import triton
import triton.language as tl

_VEC_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 vector cores


@triton.jit
def _cell_qc(data_ptr, indptr_ptr, total_ptr, ngenes_ptr, n_cells,
             BLOCK_CELLS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK_CELLS)
    for cb in range(pid, tl.cdiv(n_cells, BLOCK_CELLS), nprog):
        cells = cb * BLOCK_CELLS + lanes
        cmask = cells < n_cells
        start = tl.load(indptr_ptr + cells, mask=cmask, other=0)
        stop = tl.load(indptr_ptr + cells + 1, mask=cmask, other=0)
        length = stop - start
        total = tl.zeros([BLOCK_CELLS], dtype=tl.float32)
        ngenes = tl.zeros([BLOCK_CELLS], dtype=tl.int32)
        # one lane per cell, like the CUDA kernel's thread per cell: step j reads each cell's j-th count
        for j in range(0, tl.max(length, axis=0)):
            v = tl.load(data_ptr + start + j, mask=j < length, other=0.0)
            total += v
            ngenes += (v > 0.0).to(tl.int32)
        tl.store(total_ptr + cells, total, mask=cmask)
        tl.store(ngenes_ptr + cells, ngenes, mask=cmask)


def run(data: torch.Tensor, indptr: torch.Tensor) -> tuple:
    n_cells = indptr.numel() - 1
    total = torch.empty(n_cells, device=data.device, dtype=torch.float32)
    ngenes = torch.empty(n_cells, device=data.device, dtype=torch.int32)
    BLOCK_CELLS = 64
    grid = (min(_VEC_CORES, triton.cdiv(n_cells, BLOCK_CELLS)),)
    _cell_qc[grid](data, indptr, total, ngenes, n_cells, BLOCK_CELLS=BLOCK_CELLS)
    return total, ngenes
