"""DIAMOND stage-2 ungapped window score of every seed hit (Kadane over a 64-letter diagonal window)."""
import torch
import triton
import triton.language as tl

WINDOW = 64


@triton.jit
def _min_combine(a, b):
    return tl.minimum(a, b)


@triton.jit
def _ungapped_window(query, subject, hits, matrix, best_out, n_hits,
                     WINDOW: tl.constexpr, ALPHABET: tl.constexpr):
    h = tl.program_id(0)
    k = tl.arange(0, WINDOW)
    q0 = tl.load(hits + 2 * h) - WINDOW // 2
    s0 = tl.load(hits + 2 * h + 1) - WINDOW // 2
    a = tl.load(query + q0 + k).to(tl.int32)
    b = tl.load(subject + s0 + k).to(tl.int32)
    x = tl.load(matrix + a * ALPHABET + b).to(tl.int32)
    # Kadane: best segment = max over k of prefix[k] - min(0, running min of prefix)
    prefix = tl.cumsum(x, axis=0)
    low = tl.minimum(tl.associative_scan(prefix, 0, _min_combine), 0)
    best = tl.max(prefix - low, axis=0)
    tl.store(best_out + h, best)


def run(query: torch.Tensor, subject: torch.Tensor, hits: torch.Tensor, matrix: torch.Tensor) -> torch.Tensor:
    n_hits = hits.shape[0]
    best = torch.empty(n_hits, device=hits.device, dtype=torch.int32)
    _ungapped_window[(n_hits,)](query, subject, hits, matrix, best, n_hits,
                                WINDOW=WINDOW, ALPHABET=matrix.shape[1])
    return best
