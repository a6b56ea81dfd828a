"""Pixel cluster parameters: per cluster the total charge and the row/column bounding box of its digis."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _init_params(charge, min_row, max_row, min_col, max_col, n_clus, BLOCK: tl.constexpr):
    cl = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cl < n_clus
    tl.store(charge + cl, tl.zeros([BLOCK], dtype=tl.int32), mask=ok)
    tl.store(min_row + cl, tl.full([BLOCK], 1 << 20, tl.int32), mask=ok)
    tl.store(max_row + cl, tl.full([BLOCK], -1, tl.int32), mask=ok)
    tl.store(min_col + cl, tl.full([BLOCK], 1 << 20, tl.int32), mask=ok)
    tl.store(max_col + cl, tl.full([BLOCK], -1, tl.int32), mask=ok)


@triton.jit
def _cluster_params(row, col, adc, clus, charge, min_row, max_row, min_col, max_col, n_digis,
                    BLOCK: tl.constexpr):
    d = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = d < n_digis
    r = tl.load(row + d, mask=ok, other=0).to(tl.int32)
    c = tl.load(col + d, mask=ok, other=0).to(tl.int32)
    q = tl.load(adc + d, mask=ok, other=0)
    cl = tl.load(clus + d, mask=ok, other=0)
    # each digi folds itself into its cluster's parameters
    tl.atomic_add(charge + cl, q, mask=ok)
    tl.atomic_min(min_row + cl, r, mask=ok)
    tl.atomic_max(max_row + cl, r, mask=ok)
    tl.atomic_min(min_col + cl, c, mask=ok)
    tl.atomic_max(max_col + cl, c, mask=ok)


def run(row, col, adc, clus, clus_start):
    n_digis, n_clus = row.shape[0], clus_start.shape[0] - 1
    dev = row.device
    charge = torch.empty(n_clus, device=dev, dtype=torch.int32)
    min_row = torch.empty(n_clus, device=dev, dtype=torch.int32)
    max_row = torch.empty(n_clus, device=dev, dtype=torch.int32)
    min_col = torch.empty(n_clus, device=dev, dtype=torch.int32)
    max_col = torch.empty(n_clus, device=dev, dtype=torch.int32)
    _init_params[(triton.cdiv(n_clus, BLOCK),)](charge, min_row, max_row, min_col, max_col, n_clus,
                                                 BLOCK=BLOCK, num_warps=4)
    grid = (triton.cdiv(n_digis, BLOCK),)
    _cluster_params[grid](row, col, adc, clus, charge, min_row, max_row, min_col, max_col, n_digis,
                          BLOCK=BLOCK, num_warps=4)
    return charge, min_row, max_row, min_col, max_col
