"""t-SNE attractive forces over the symmetrised kNN affinity graph (row-sorted COO)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _attractive_forces(y, rowptr, cols, vals, attract, N, ROWS: tl.constexpr, BLOCK_K: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    r_ok = r < N
    start = tl.load(rowptr + r, mask=r_ok, other=0)
    deg = tl.load(rowptr + r + 1, mask=r_ok, other=0) - start
    yi1 = tl.load(y + r, mask=r_ok, other=0.0)
    yi2 = tl.load(y + N + r, mask=r_ok, other=0.0)
    f1 = tl.zeros([ROWS], dtype=tl.float32)
    f2 = tl.zeros([ROWS], dtype=tl.float32)
    for k0 in range(0, tl.max(deg, axis=0), BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        ok = k[None, :] < deg[:, None]
        e = start[:, None] + k[None, :]
        j = tl.load(cols + e, mask=ok, other=0)
        p = tl.load(vals + e, mask=ok, other=0.0)
        d1 = yi1[:, None] - tl.load(y + j, mask=ok, other=0.0)
        d2 = yi2[:, None] - tl.load(y + N + j, mask=ok, other=0.0)
        pq = p / (1.0 + d1 * d1 + d2 * d2)
        f1 += tl.sum(pq * d1, axis=1)
        f2 += tl.sum(pq * d2, axis=1)
    tl.store(attract + r, f1, mask=r_ok)
    tl.store(attract + N + r, f2, mask=r_ok)


def run(y, rows, cols, vals, rowptr) -> torch.Tensor:
    N = y.shape[1]
    attract = torch.empty((2, N), device=y.device, dtype=torch.float32)
    ROWS = 16
    _attractive_forces[(triton.cdiv(N, ROWS),)](y, rowptr, cols, vals, attract, N,
                                                ROWS=ROWS, BLOCK_K=64, num_warps=4)
    return attract
