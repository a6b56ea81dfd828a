"""Pixel cluster parameters: per cluster the total charge and the row/column bounding box of its digis."""
import torch
import triton
import triton.language as tl

BLOCK_C = 64
CHUNK = 8


@triton.jit
def _cluster_params(row, col, adc, clus_start, charge, min_row, max_row, min_col, max_col, n_clus,
                    BLOCK_C: tl.constexpr, CHUNK: tl.constexpr):
    cl = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    ok = cl < n_clus
    first = tl.load(clus_start + cl, mask=ok, other=0)
    size = tl.load(clus_start + cl + 1, mask=ok, other=0) - first
    q_sum = tl.zeros([BLOCK_C], dtype=tl.int32)
    r_min = tl.full([BLOCK_C], 1 << 20, tl.int32)
    r_max = tl.full([BLOCK_C], -1, tl.int32)
    c_min = tl.full([BLOCK_C], 1 << 20, tl.int32)
    c_max = tl.full([BLOCK_C], -1, tl.int32)
    # the digis of a cluster are contiguous: walk them CHUNK at a time, clusters along the rows
    for k0 in range(0, tl.max(size, axis=0), CHUNK):
        k = k0 + tl.arange(0, CHUNK)
        m = k[None, :] < size[:, None]
        d = first[:, None] + k[None, :]
        r = tl.load(row + d, mask=m, other=0).to(tl.int32)
        c = tl.load(col + d, mask=m, other=0).to(tl.int32)
        q = tl.load(adc + d, mask=m, other=0)
        q_sum += tl.sum(q, axis=1)
        r_min = tl.minimum(r_min, tl.min(tl.where(m, r, 1 << 20), axis=1))
        r_max = tl.maximum(r_max, tl.max(tl.where(m, r, -1), axis=1))
        c_min = tl.minimum(c_min, tl.min(tl.where(m, c, 1 << 20), axis=1))
        c_max = tl.maximum(c_max, tl.max(tl.where(m, c, -1), axis=1))
    tl.store(charge + cl, q_sum, mask=ok)
    tl.store(min_row + cl, r_min, mask=ok)
    tl.store(max_row + cl, r_max, mask=ok)
    tl.store(min_col + cl, c_min, mask=ok)
    tl.store(max_col + cl, c_max, mask=ok)


def run(row, col, adc, clus, clus_start):
    n_clus = clus_start.shape[0] - 1
    dev = row.device
    charge = torch.empty(n_clus, device=dev, dtype=torch.int32)
    min_row = torch.empty(n_clus, device=dev, dtype=torch.int32)
    max_row = torch.empty(n_clus, device=dev, dtype=torch.int32)
    min_col = torch.empty(n_clus, device=dev, dtype=torch.int32)
    max_col = torch.empty(n_clus, device=dev, dtype=torch.int32)
    grid = (triton.cdiv(n_clus, BLOCK_C),)
    _cluster_params[grid](row, col, adc, clus_start, charge, min_row, max_row, min_col, max_col, n_clus,
                          BLOCK_C=BLOCK_C, CHUNK=CHUNK, num_warps=4)
    return charge, min_row, max_row, min_col, max_col
