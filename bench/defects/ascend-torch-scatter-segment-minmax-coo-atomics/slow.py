"""Segment min/max over sorted segment ids (torch_scatter segment_min_coo / segment_max_coo)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _fill_bounds(lo, hi, S, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(S, BLOCK), n_prog):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        tl.store(lo + offs, tl.full((BLOCK,), float("inf"), tl.float32), mask=offs < S)
        tl.store(hi + offs, tl.full((BLOCK,), float("-inf"), tl.float32), mask=offs < S)


@triton.jit
def _segment_min_max(values, seg, lo, hi, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(N, BLOCK), n_prog):
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        v = tl.load(values + offs, mask=m, other=0.0)
        s = tl.load(seg + offs, mask=m, other=0)
        tl.atomic_min(lo + s, v, mask=m)
        tl.atomic_max(hi + s, v, mask=m)


def run(values: torch.Tensor, seg: torch.Tensor, num_segments: int) -> tuple:
    N = values.shape[0]
    lo = torch.empty((num_segments,), device=values.device, dtype=torch.float32)
    hi = torch.empty((num_segments,), device=values.device, dtype=torch.float32)
    block = 1024
    _fill_bounds[(min(triton.cdiv(num_segments, block), NUM_VECTOR_CORES),)](lo, hi, num_segments, BLOCK=block)
    grid = (min(triton.cdiv(N, block), NUM_VECTOR_CORES),)
    _segment_min_max[grid](values, seg, lo, hi, N, BLOCK=block)
    return lo, hi
