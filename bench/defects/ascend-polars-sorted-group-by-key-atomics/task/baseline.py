"""Sorted-key group-by: per-group sum and mean of a value column."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _group_sum_mean(values, keys, offsets, sums, means, G, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for grp in range(pid, G, nprog):
        first = tl.load(offsets + grp)
        end = tl.load(offsets + grp + 1)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(first, end, BLOCK):
            offs = start + lanes
            acc += tl.load(values + offs, mask=offs < end, other=0.0)
        total = tl.sum(acc, axis=0)
        tl.store(sums + grp, total)
        tl.store(means + grp, total / (end - first).to(tl.float32))


def run(values: torch.Tensor, keys: torch.Tensor, offsets: torch.Tensor):
    G = offsets.numel() - 1
    sums = torch.empty(G, device=values.device, dtype=torch.float32)
    means = torch.empty(G, device=values.device, dtype=torch.float32)
    grid = (max(1, min(_VECTOR_CORES, G)),)
    _group_sum_mean[grid](values, keys, offsets, sums, means, G, BLOCK=_BLOCK)
    return sums, means
