# backend: cuda
import triton
import triton.language as tl


@triton.jit
def common_neighbours(offsets, nbrs, pair_a, pair_b, out, TILE: tl.constexpr):
    p = tl.program_id(0)
    a = tl.load(pair_a + p)
    b = tl.load(pair_b + p)
    a0 = tl.load(offsets + a)
    na = tl.load(offsets + a + 1) - a0
    b0 = tl.load(offsets + b)
    nb = tl.load(offsets + b + 1) - b0
    idx = tl.arange(0, TILE)
    found = tl.zeros([TILE, TILE], dtype=tl.int32)
    for i in range(0, na, TILE):
        x = tl.load(nbrs + a0 + i + idx, mask=i + idx < na, other=-1)
        for j in range(0, nb, TILE):
            y = tl.load(nbrs + b0 + j + idx, mask=j + idx < nb, other=-2)
            found += tl.where(x[:, None] == y[None, :], 1, 0)  # expect: common-linear-table-scan
    tl.store(out + p, tl.sum(tl.sum(found, axis=1), axis=0))


def run(offsets, nbrs, pair_a, pair_b, out):
    common_neighbours[(pair_a.numel(),)](offsets, nbrs, pair_a, pair_b, out, TILE=64)
