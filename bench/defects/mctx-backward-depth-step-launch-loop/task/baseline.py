"""mctx-style backward: back a leaf value up to the root of every tree of a batched MCTS."""
import torch
import triton
import triton.language as tl

TREES = 32
BLOCK_COPY = 2048


@triton.jit
def _copy_tree(src_visits, src_values, visits, values, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    tl.store(visits + offs, tl.load(src_visits + offs, mask=ok), mask=ok)
    tl.store(values + offs, tl.load(src_values + offs, mask=ok), mask=ok)


@triton.jit
def _backward(parents, visits, values, leaf_index, leaf_value, n_trees, n_nodes, TREES: tl.constexpr):
    b = tl.program_id(0) * TREES + tl.arange(0, TREES)
    ok = b < n_trees
    node = tl.load(leaf_index + b, mask=ok, other=-1)
    v = tl.load(leaf_value + b, mask=ok, other=0.0)
    row = b * n_nodes
    while tl.max(node, axis=0) >= 0:
        act = node >= 0
        at = row + node
        n = tl.load(visits + at, mask=act, other=0)
        q = tl.load(values + at, mask=act, other=0.0)
        tl.store(values + at, (q * n + v) / (n + 1), mask=act)
        tl.store(visits + at, n + 1, mask=act)
        node = tl.load(parents + at, mask=act, other=-1)
        v = -v  # reward 0, discount -1: the other player's view one ply up


def run(parents, node_visits, node_values, leaf_index, leaf_value) -> tuple:
    n_trees, n_nodes = parents.shape
    visits = torch.empty_like(node_visits)
    values = torch.empty_like(node_values)
    total = n_trees * n_nodes
    _copy_tree[(triton.cdiv(total, BLOCK_COPY),)](node_visits, node_values, visits, values, total,
                                                  BLOCK=BLOCK_COPY, num_warps=4)
    _backward[(triton.cdiv(n_trees, TREES),)](parents, visits, values, leaf_index, leaf_value,
                                              n_trees, n_nodes, TREES=TREES, num_warps=1)
    return values, visits
