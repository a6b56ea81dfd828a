"""Per-cell QC metrics of scanpy's calculate_qc_metrics on a CSR count matrix (rapids-singlecell's
_sparse_qc_csr, cell part).

The raw UMI count matrix [cells, genes] is held as CSR (AnnData's layout): data[indptr[c]:indptr[c+1]] are the
stored counts of cell c (explicit zeros may remain after ambient-RNA filtering). Per cell:
    total_counts[c]      = sum of the cell's stored counts
    n_genes_by_counts[c] = number of the cell's stored counts > 0
Returns (total_counts [cells] fp32, n_genes_by_counts [cells] int32). Column indices are not needed for
these metrics and are not passed.
"""
import torch

META = {
    "name": "csr_cell_qc_metrics",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"cells": 20, "genes": 200, "mean_genes": 40},
        "ragged": {"cells": 37, "genes": 301, "mean_genes": 23},
        "large": {"cells": 100_000, "genes": 36_601, "mean_genes": 2_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 cells; within a block each cell "
                      "is walked in contiguous 2,048-count chunks data[indptr[c] + j : ...] (one DMA each), "
                      "summed and counted in registers, and the block's 64 results go out in one vector store "
                      "per metric. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [nnz] fp32 UMI counts, indptr [cells + 1] int32 (10x-like: log-normal genes per cell)."""
    s = META["sizes"][size]
    n, n_genes, mean_genes = s["cells"], s["genes"], s["mean_genes"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = (mean_genes * torch.exp(0.5 * torch.randn(n, generator=g) - 0.125)).long()
    lengths = lengths.clamp(0, n_genes)
    lengths[torch.rand(n, generator=g) < 0.02] = 0                      # a few empty droplets
    indptr = torch.zeros(n + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(lengths, dim=0)
    nnz = int(indptr[-1])
    u = torch.rand(nnz, generator=g)
    counts = torch.floor(-torch.log1p(-u * 0.999) * 1.6) + 1.0          # geometric-like, >= 1
    counts[torch.rand(nnz, generator=g) < 0.01] = 0.0                   # explicit zeros left in the matrix
    return counts.to(dt).to(device), indptr.to(torch.int32).to(device)


def reference(data: torch.Tensor, indptr: torch.Tensor) -> tuple:
    n = indptr.numel() - 1
    lengths = (indptr[1:] - indptr[:-1]).long()
    rows = torch.repeat_interleave(torch.arange(n, device=data.device), lengths)
    total = torch.zeros(n, dtype=torch.float64, device=data.device).index_add_(0, rows, data.double())
    n_genes = torch.bincount(rows[data > 0], minlength=n)
    return total.to(data.dtype), n_genes.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = s["cells"] * s["mean_genes"]
    return {"bytes": 4 * nnz + 12 * s["cells"], "flops": 2 * nnz}
