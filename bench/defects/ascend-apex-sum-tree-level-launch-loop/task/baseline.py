"""Sum-tree refresh: subtrees of 4,096 leaves built on chip, then the top levels from their roots."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40
LOG_SUBTREE = 12


@triton.jit
def _pair_sum(x, n: tl.constexpr):
    return tl.sum(tl.reshape(x, (n, 2)), axis=1)


@triton.jit
def _subtrees(prio, tree, C, Cp, LOG_S: tl.constexpr):
    S: tl.constexpr = 1 << LOG_S
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for sub in range(pid, Cp >> LOG_S, nprog):
        leaf = sub * S + tl.arange(0, S)
        x = tl.load(prio + leaf, mask=leaf < C, other=0.0)
        tl.store(tree + (Cp - 1) + leaf, x)
        for h in tl.static_range(1, LOG_S + 1):
            x = _pair_sum(x, S >> h)
            tl.store(tree + ((Cp >> h) - 1) + sub * (S >> h) + tl.arange(0, S >> h), x)


@triton.jit
def _top_levels(tree, TOP: tl.constexpr):
    R: tl.constexpr = 1 << TOP
    x = tl.load(tree + (R - 1) + tl.arange(0, R))
    for h in tl.static_range(1, TOP + 1):
        x = _pair_sum(x, R >> h)
        tl.store(tree + ((R >> h) - 1) + tl.arange(0, R >> h), x)


def run(priorities):
    C = priorities.numel()
    depth = max(1, (C - 1).bit_length())
    cp = 1 << depth
    tree = torch.empty(2 * cp - 1, device=priorities.device, dtype=priorities.dtype)
    log_s = min(LOG_SUBTREE, depth)
    _subtrees[(min(VECTOR_CORES, cp >> log_s),)](priorities, tree, C, cp, LOG_S=log_s)
    if depth > log_s:
        _top_levels[(1,)](tree, TOP=depth - log_s)
    return tree
