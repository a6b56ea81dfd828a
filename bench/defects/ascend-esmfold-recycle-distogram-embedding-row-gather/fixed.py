"""ESMFold recycling distogram embedding: z[i, j] + emb[bin(|cb_i - cb_j|^2)], persistent programs on the vector cores."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B4): 20 AI cores, 40 vector cores


@triton.jit
def _recycle_disto_embed(z, cb, bounds2, emb, out, L, n_tiles, tiles_per_row,
                         C: tl.constexpr, NB: tl.constexpr, NB_PAD: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    xyz = tl.arange(0, 4)
    ch = tl.arange(0, C)
    k = tl.arange(0, NB_PAD)
    bnd = tl.load(bounds2 + k, mask=k < NB - 1, other=float("inf"))
    table = tl.load(emb + k[:, None] * C + ch[None, :], mask=k[:, None] < NB, other=0.0)
    for t in range(pid, n_tiles, nprog):
        i = t // tiles_per_row
        j = (t - i * tiles_per_row) * BLOCK_J + tl.arange(0, BLOCK_J)
        jm = j < L
        xi = tl.load(cb + i * 3 + xyz, mask=xyz < 3, other=0.0)
        xj = tl.load(cb + j[:, None] * 3 + xyz[None, :], mask=jm[:, None] & (xyz[None, :] < 3), other=0.0)
        d = xj - xi[None, :]
        d2 = tl.sum(d * d, axis=1)
        bins = tl.sum((d2[:, None] > bnd[None, :]).to(tl.int32), axis=1)
        offs = (i * L + j)[:, None] * C + ch[None, :]
        zt = tl.load(z + offs, mask=jm[:, None], other=0.0)
        row = tl.gather(table, tl.broadcast_to(bins[:, None], (BLOCK_J, C)), axis=0)
        tl.store(out + offs, zt + row, mask=jm[:, None])


def run(z: torch.Tensor, cb: torch.Tensor, bounds2: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    L, _, C = z.shape
    nb = emb.shape[0]
    out = torch.empty_like(z)
    BLOCK_J = 32
    tiles_per_row = triton.cdiv(L, BLOCK_J)
    n_tiles = L * tiles_per_row
    grid = (min(VECTOR_CORES, n_tiles),)
    _recycle_disto_embed[grid](z, cb, bounds2, emb, out, L, n_tiles, tiles_per_row,
                               C=C, NB=nb, NB_PAD=triton.next_power_of_2(nb), BLOCK_J=BLOCK_J)
    return out
