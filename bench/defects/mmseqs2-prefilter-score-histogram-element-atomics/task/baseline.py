"""MMseqs2 prefilter top-hit threshold: 256-bin score histogram per query row, then the threshold walk."""
import torch
import triton
import triton.language as tl

BLOCK = 2048
SPLIT = 16
N_BINS = 256


@triton.jit
def _score_histogram(scores, hist, n_targets, stride_q,
                     N_BINS: tl.constexpr, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    q = tl.program_id(0)
    row = scores + q * stride_q
    acc = tl.zeros([N_BINS], dtype=tl.int32)
    for start in range(tl.program_id(1) * BLOCK, n_targets, SPLIT * BLOCK):
        t = start + tl.arange(0, BLOCK)
        ok = t < n_targets
        s = tl.load(row + t, mask=ok, other=0).to(tl.int32)
        acc += tl.histogram(s, N_BINS, mask=ok)
    tl.atomic_add(hist + q * N_BINS + tl.arange(0, N_BINS), acc)


@triton.jit
def _score_threshold(hist, thr_out, n_hits_out, max_hits, N_BINS: tl.constexpr):
    q = tl.program_id(0)
    b = tl.arange(0, N_BINS)
    h = tl.load(hist + q * N_BINS + b)
    at_or_above = tl.sum(h, axis=0) - tl.cumsum(h, axis=0) + h
    ok = (b >= 1) & (at_or_above >= max_hits)
    thr = tl.max(tl.where(ok, b, 0), axis=0)
    n_hits = tl.sum(tl.where(b >= thr, h, 0), axis=0)
    tl.store(thr_out + q, thr)
    tl.store(n_hits_out + q, n_hits)


def run(scores: torch.Tensor, max_hits: int) -> tuple:
    n_queries, n_targets = scores.shape
    hist = torch.zeros(n_queries, N_BINS, device=scores.device, dtype=torch.int32)
    thr = torch.empty(n_queries, device=scores.device, dtype=torch.int32)
    n_hits = torch.empty(n_queries, device=scores.device, dtype=torch.int32)
    _score_histogram[(n_queries, SPLIT)](scores, hist, n_targets, scores.stride(0),
                                         N_BINS=N_BINS, BLOCK=BLOCK, SPLIT=SPLIT, num_warps=4)
    _score_threshold[(n_queries,)](hist, thr, n_hits, max_hits, N_BINS=N_BINS, num_warps=4)
    return hist, thr, n_hits
