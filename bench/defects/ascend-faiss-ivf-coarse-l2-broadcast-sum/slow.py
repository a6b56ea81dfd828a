"""IVF coarse L2 distances: persistent programs over output tiles, inner products accumulated over d chunks."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _ivf_coarse_l2(x, c, c_norm, out, nq, nlist, D: tl.constexpr,
                   BLOCK_Q: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_c = tl.cdiv(nlist, BLOCK_C)
    n_tiles = tl.cdiv(nq, BLOCK_Q) * tiles_c
    for tile in range(pid, n_tiles, nprog):
        rows = (tile // tiles_c) * BLOCK_Q + tl.arange(0, BLOCK_Q)
        cols = (tile % tiles_c) * BLOCK_C + tl.arange(0, BLOCK_C)
        row_ok = rows < nq
        col_ok = cols < nlist
        ip = tl.zeros([BLOCK_Q, BLOCK_C], dtype=tl.float32)
        x_norm = tl.zeros([BLOCK_Q], dtype=tl.float32)
        for k0 in range(0, D, BLOCK_D):
            dims = k0 + tl.arange(0, BLOCK_D)
            xq = tl.load(x + rows[:, None] * D + dims[None, :], mask=row_ok[:, None], other=0.0).to(tl.float32)
            cc = tl.load(c + cols[:, None] * D + dims[None, :], mask=col_ok[:, None], other=0.0).to(tl.float32)
            ip += tl.sum(xq[:, None, :] * cc[None, :, :], axis=2)
            x_norm += tl.sum(xq * xq, axis=1)
        cn = tl.load(c_norm + cols, mask=col_ok, other=0.0)
        dist = x_norm[:, None] + cn[None, :] - 2.0 * ip
        tl.store(out + rows[:, None] * nlist + cols[None, :], dist,
                 mask=row_ok[:, None] & col_ok[None, :])


def run(queries: torch.Tensor, centroids: torch.Tensor, centroid_norms: torch.Tensor) -> torch.Tensor:
    nq, d = queries.shape
    nlist = centroids.shape[0]
    out = torch.empty((nq, nlist), device=queries.device, dtype=torch.float32)
    BLOCK_Q, BLOCK_C, BLOCK_D = 16, 64, 16
    n_tiles = triton.cdiv(nq, BLOCK_Q) * triton.cdiv(nlist, BLOCK_C)
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    _ivf_coarse_l2[grid](queries, centroids, centroid_norms, out, nq, nlist,
                         D=d, BLOCK_Q=BLOCK_Q, BLOCK_C=BLOCK_C, BLOCK_D=BLOCK_D)
    return out
