"""Sorted-key group-by: per-group sum and mean of a value column."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _group_sum_count(values, keys, sums, counts, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + lanes
        m = offs < N
        k = tl.load(keys + offs, mask=m, other=0)
        v = tl.load(values + offs, mask=m, other=0.0)
        tl.atomic_add(sums + k, v, mask=m)
        tl.atomic_add(counts + k, tl.full([BLOCK], 1.0, tl.float32), mask=m)


@triton.jit
def _group_mean(sums, counts, means, G, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < G
    s = tl.load(sums + offs, mask=m, other=0.0)
    c = tl.load(counts + offs, mask=m, other=1.0)
    tl.store(means + offs, s / c, mask=m)


def run(values: torch.Tensor, keys: torch.Tensor, offsets: torch.Tensor):
    N = values.numel()
    G = offsets.numel() - 1
    sums = torch.zeros(G, device=values.device, dtype=torch.float32)
    counts = torch.zeros(G, device=values.device, dtype=torch.float32)
    means = torch.empty(G, device=values.device, dtype=torch.float32)
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(N, _BLOCK))),)
    _group_sum_count[grid](values, keys, sums, counts, N, BLOCK=_BLOCK)
    _group_mean[(triton.cdiv(G, 1024),)](sums, counts, means, G, BLOCK=1024)
    return sums, means
