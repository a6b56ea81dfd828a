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
def _backward_step(parents, visits, values, cur_node, cur_value, live, n_trees, n_nodes,
                   TREES: tl.constexpr):
    b = tl.program_id(0) * TREES + tl.arange(0, TREES)
    ok = b < n_trees
    node = tl.load(cur_node + b, mask=ok, other=-1)
    v = tl.load(cur_value + b, mask=ok, other=0.0)
    act = node >= 0
    at = b * n_nodes + node
    n = tl.load(visits + at, mask=act, other=0)
    q = tl.load(values + at, mask=act, other=0.0)
    tl.store(values + at, (q * n + v) / (n + 1), mask=act)
    tl.store(visits + at, n + 1, mask=act)
    parent = tl.load(parents + at, mask=act, other=-1)
    tl.store(cur_node + b, parent, mask=ok)
    tl.store(cur_value + b, -v, mask=ok)  # reward 0, discount -1: the other player's view one ply up
    tl.atomic_max(live, tl.max(parent, axis=0) + 1)  # 0 once no tree has a parent left


def run(parents, node_visits, node_values, leaf_index, leaf_value) -> tuple:
    n_trees, n_nodes = parents.shape
    visits = torch.empty_like(node_visits)
    values = torch.empty_like(node_values)
    total = n_trees * n_nodes
    _copy_tree[(triton.cdiv(total, BLOCK_COPY),)](node_visits, node_values, visits, values, total,
                                                  BLOCK=BLOCK_COPY, num_warps=4)
    node = torch.empty_like(leaf_index)
    value = torch.empty_like(leaf_value)
    _copy_tree[(triton.cdiv(n_trees, BLOCK_COPY),)](leaf_index, leaf_value, node, value, n_trees,
                                                    BLOCK=BLOCK_COPY, num_warps=4)
    live = torch.zeros(n_nodes, device=parents.device, dtype=torch.int32)
    grid = (triton.cdiv(n_trees, TREES),)
    # the body of mctx's jax.lax.while_loop, one level up per launch; cond_fun read back on the host
    for level in range(n_nodes):
        _backward_step[grid](parents, visits, values, node, value, live[level:], n_trees, n_nodes,
                             TREES=TREES, num_warps=1)
        if live[level].item() == 0:  # every tree has passed its root
            break
    return values, visits
