"""t-SNE attractive forces over the symmetrised kNN affinity graph (row-sorted COO)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _attractive_forces(y, rows, cols, vals, attract, N, E, BLOCK_E: tl.constexpr):
    e = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)
    ok = e < E
    i = tl.load(rows + e, mask=ok, other=0)
    j = tl.load(cols + e, mask=ok, other=0)
    p = tl.load(vals + e, mask=ok, other=0.0)
    d1 = tl.load(y + i, mask=ok, other=0.0) - tl.load(y + j, mask=ok, other=0.0)
    d2 = tl.load(y + N + i, mask=ok, other=0.0) - tl.load(y + N + j, mask=ok, other=0.0)
    pq = p / (1.0 + d1 * d1 + d2 * d2)
    tl.atomic_add(attract + i, pq * d1, mask=ok)
    tl.atomic_add(attract + N + i, pq * d2, mask=ok)


def run(y, rows, cols, vals, rowptr) -> torch.Tensor:
    N = y.shape[1]
    E = cols.shape[0]
    attract = torch.zeros((2, N), device=y.device, dtype=torch.float32)
    BLOCK_E = 1024
    _attractive_forces[(triton.cdiv(E, BLOCK_E),)](y, rows, cols, vals, attract, N, E,
                                                   BLOCK_E=BLOCK_E, num_warps=4)
    return attract
