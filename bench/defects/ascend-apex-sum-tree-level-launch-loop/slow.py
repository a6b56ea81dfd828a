"""Sum-tree refresh: leaves written with zero padding, then every level summed from the one below it."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _write_leaves(prio, tree, C, Cp, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(Cp, BLOCK), nprog):
        leaf = tile * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(prio + leaf, mask=leaf < C, other=0.0)
        tl.store(tree + (Cp - 1) + leaf, x, mask=leaf < Cp)


@triton.jit
def _sum_level(tree, n_nodes, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    first = n_nodes - 1
    for tile in range(pid, tl.cdiv(n_nodes, BLOCK), nprog):
        node = tile * BLOCK + tl.arange(0, BLOCK)
        kid = 2 * tile * BLOCK + tl.arange(0, 2 * BLOCK)
        pair = tl.load(tree + 2 * first + 1 + kid, mask=kid < 2 * n_nodes, other=0.0)
        total = tl.sum(tl.reshape(pair, (BLOCK, 2)), axis=1)
        tl.store(tree + first + node, total, mask=node < n_nodes)


def run(priorities):
    C = priorities.numel()
    depth = max(1, (C - 1).bit_length())
    cp = 1 << depth
    tree = torch.empty(2 * cp - 1, device=priorities.device, dtype=priorities.dtype)
    _write_leaves[(min(VECTOR_CORES, triton.cdiv(cp, BLOCK)),)](priorities, tree, C, cp, BLOCK=BLOCK)
    for d in range(depth - 1, -1, -1):
        n_nodes = 1 << d
        block = min(BLOCK, n_nodes)
        _sum_level[(min(VECTOR_CORES, triton.cdiv(n_nodes, block)),)](tree, n_nodes, BLOCK=block)
    return tree
