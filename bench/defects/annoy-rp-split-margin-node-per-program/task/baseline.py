"""Annoy random-projection split: margin = dot(node normal, item vector) for every item of every node
at one tree depth, items grouped by node."""
import torch
import triton
import triton.language as tl

BLOCK_N = 64
ROWS_PER_PROGRAM = 256


@triton.jit
def _split_margins(vectors, items, node_start, normals, margin, D, split,
                   BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    node = tl.program_id(0)
    lo = tl.load(node_start + node)
    hi = tl.load(node_start + node + 1)
    d = tl.arange(0, BLOCK_D)
    d_ok = d < D
    w = tl.load(normals + node * D + d, mask=d_ok, other=0.0)
    for start in range(lo + tl.program_id(1) * BLOCK_N, hi, split * BLOCK_N):
        j = start + tl.arange(0, BLOCK_N)
        ok = j < hi
        item = tl.load(items + j, mask=ok, other=0)
        v = tl.load(vectors + item[:, None] * D + d[None, :], mask=ok[:, None] & d_ok[None, :], other=0.0)
        tl.store(margin + j, tl.sum(v * w[None, :], axis=1), mask=ok)


def run(vectors, items, node_start, normals):
    n, d = vectors.shape
    nodes = normals.shape[0]
    margin = torch.empty(n, device=vectors.device, dtype=vectors.dtype)
    split = triton.cdiv(n, nodes * ROWS_PER_PROGRAM)
    _split_margins[(nodes, split)](vectors, items, node_start, normals, margin, d, split,
                                   BLOCK_N=BLOCK_N, BLOCK_D=triton.next_power_of_2(d), num_warps=4)
    return margin
