"""Per-cell QC metrics (total_counts, n_genes_by_counts) over a CSR count matrix."""
import torch
import triton
import triton.language as tl

_VEC_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 vector cores


@triton.jit
def _cell_qc(data_ptr, indptr_ptr, total_ptr, ngenes_ptr, n_cells,
             BLOCK_CELLS: tl.constexpr, BLOCK_NNZ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK_CELLS)
    for cb in range(pid, tl.cdiv(n_cells, BLOCK_CELLS), nprog):
        cells = cb * BLOCK_CELLS + lanes
        cmask = cells < n_cells
        total = tl.zeros([BLOCK_CELLS], dtype=tl.float32)
        ngenes = tl.zeros([BLOCK_CELLS], dtype=tl.int32)
        # one cell at a time: its counts are contiguous, read them in BLOCK_NNZ-wide chunks
        for i in range(BLOCK_CELLS):
            cell = tl.minimum(cb * BLOCK_CELLS + i, n_cells - 1)
            start = tl.load(indptr_ptr + cell)
            stop = tl.load(indptr_ptr + cell + 1)
            acc = tl.zeros([BLOCK_NNZ], dtype=tl.float32)
            cnt = tl.zeros([BLOCK_NNZ], dtype=tl.int32)
            for j in range(start, stop, BLOCK_NNZ):
                offs = j + tl.arange(0, BLOCK_NNZ)
                v = tl.load(data_ptr + offs, mask=offs < stop, other=0.0)
                acc += v
                cnt += (v > 0.0).to(tl.int32)
            total = tl.where(lanes == i, tl.sum(acc, axis=0), total)
            ngenes = tl.where(lanes == i, tl.sum(cnt, axis=0), ngenes)
        tl.store(total_ptr + cells, total, mask=cmask)
        tl.store(ngenes_ptr + cells, ngenes, mask=cmask)


def run(data: torch.Tensor, indptr: torch.Tensor) -> tuple:
    n_cells = indptr.numel() - 1
    total = torch.empty(n_cells, device=data.device, dtype=torch.float32)
    ngenes = torch.empty(n_cells, device=data.device, dtype=torch.int32)
    BLOCK_CELLS, BLOCK_NNZ = 64, 2048
    grid = (min(_VEC_CORES, triton.cdiv(n_cells, BLOCK_CELLS)),)
    _cell_qc[grid](data, indptr, total, ngenes, n_cells, BLOCK_CELLS=BLOCK_CELLS, BLOCK_NNZ=BLOCK_NNZ)
    return total, ngenes
