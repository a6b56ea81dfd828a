"""IVF coarse L2 distances: persistent programs over output tiles, inner products on the cube unit."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _ivf_coarse_l2(x, c, c_norm, out, nq, nlist,
                   D: tl.constexpr, BLOCK_Q: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_c = tl.cdiv(nlist, BLOCK_C)
    n_tiles = tl.cdiv(nq, BLOCK_Q) * tiles_c
    dims = tl.arange(0, D)
    for tile in range(pid, n_tiles, nprog):
        rows = (tile // tiles_c) * BLOCK_Q + tl.arange(0, BLOCK_Q)
        cols = (tile % tiles_c) * BLOCK_C + tl.arange(0, BLOCK_C)
        row_ok = rows < nq
        col_ok = cols < nlist
        xq = tl.load(x + rows[:, None] * D + dims[None, :], mask=row_ok[:, None], other=0.0)
        cc = tl.load(c + cols[:, None] * D + dims[None, :], mask=col_ok[:, None], other=0.0)
        ip = tl.dot(xq, tl.trans(cc))
        xf = xq.to(tl.float32)
        x_norm = tl.sum(xf * xf, axis=1)
        cn = tl.load(c_norm + cols, mask=col_ok, other=0.0)
        dist = x_norm[:, None] + cn[None, :] - 2.0 * ip
        tl.store(out + rows[:, None] * nlist + cols[None, :], dist,
                 mask=row_ok[:, None] & col_ok[None, :])


def run(queries: torch.Tensor, centroids: torch.Tensor, centroid_norms: torch.Tensor) -> torch.Tensor:
    nq, d = queries.shape
    nlist = centroids.shape[0]
    out = torch.empty((nq, nlist), device=queries.device, dtype=torch.float32)
    BLOCK_Q, BLOCK_C = 128, 128
    n_tiles = triton.cdiv(nq, BLOCK_Q) * triton.cdiv(nlist, BLOCK_C)
    grid = (min(NUM_AI_CORES, n_tiles),)
    _ivf_coarse_l2[grid](queries, centroids, centroid_norms, out, nq, nlist,
                         D=d, BLOCK_Q=BLOCK_Q, BLOCK_C=BLOCK_C)
    return out
