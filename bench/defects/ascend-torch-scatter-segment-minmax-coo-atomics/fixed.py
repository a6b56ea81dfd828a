"""Segment min/max over sorted segment ids (torch_scatter segment_min_coo / segment_max_coo)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _lower_bound(seg, N, target):
    lo = 0
    hi = N
    while lo < hi:
        mid = (lo + hi) // 2
        below = tl.load(seg + mid) < target
        lo = tl.where(below, mid + 1, lo)
        hi = tl.where(below, hi, mid)
    return lo


@triton.jit
def _segment_min_max(values, seg, lo, hi, N, S, blocks_per_prog,
                     BLOCK_S: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    first = pid * blocks_per_prog
    last = tl.minimum(first + blocks_per_prog, tl.cdiv(S, BLOCK_S))
    start = _lower_bound(seg, N, first * BLOCK_S)
    lane = tl.arange(0, BLOCK_E)
    for blk in range(first, last):
        s0 = blk * BLOCK_S
        ids = s0 + tl.arange(0, BLOCK_S)
        ids_f = ids.to(tl.float32)
        end_f = (s0 + BLOCK_S).to(tl.float32)
        run_lo = tl.full((BLOCK_S,), float("inf"), tl.float32)
        run_hi = tl.full((BLOCK_S,), float("-inf"), tl.float32)
        taken = BLOCK_E
        while taken == BLOCK_E:
            offs = start + lane
            s = tl.load(seg + offs, mask=offs < N, other=2147483647).to(tl.float32)
            v = tl.load(values + offs, mask=offs < N, other=0.0)
            hit = s[None, :] == ids_f[:, None]
            run_lo = tl.minimum(run_lo, tl.min(tl.where(hit, v[None, :], float("inf")), axis=1))
            run_hi = tl.maximum(run_hi, tl.max(tl.where(hit, v[None, :], float("-inf")), axis=1))
            taken = tl.sum((s < end_f).to(tl.int32), axis=0)
            start += taken
        tl.store(lo + ids, run_lo, mask=ids < S)
        tl.store(hi + ids, run_hi, mask=ids < S)


def run(values: torch.Tensor, seg: torch.Tensor, num_segments: int) -> tuple:
    N = values.shape[0]
    lo = torch.empty((num_segments,), device=values.device, dtype=torch.float32)
    hi = torch.empty((num_segments,), device=values.device, dtype=torch.float32)
    block_s, block_e = 16, 256
    n_blocks = triton.cdiv(num_segments, block_s)
    n_prog = min(n_blocks, NUM_VECTOR_CORES)
    per_prog = triton.cdiv(n_blocks, n_prog)
    _segment_min_max[(n_prog,)](values, seg, lo, hi, N, num_segments, per_prog, BLOCK_S=block_s, BLOCK_E=block_e)
    return lo, hi
