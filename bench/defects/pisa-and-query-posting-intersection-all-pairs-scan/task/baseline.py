"""AND-query probe of short posting lists into long ones: per-entry lower-bound binary search."""
import torch
import triton
import triton.language as tl


@triton.jit
def _and_probe(short_docs, short_qid, long_docs, long_off, pos_out, NA,
               STEPS: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = i < NA
    a = tl.load(short_docs + i, mask=live, other=0)
    qid = tl.load(short_qid + i, mask=live, other=0)
    lo = tl.load(long_off + qid, mask=live, other=0)
    end = tl.load(long_off + qid + 1, mask=live, other=0)
    hi = end
    for _ in range(STEPS):
        active = lo < hi
        mid = (lo + hi) >> 1
        v = tl.load(long_docs + mid, mask=active, other=0)
        right = active & (v < a)
        lo = tl.where(right, mid + 1, lo)
        hi = tl.where(active & (v >= a), mid, hi)
    inside = live & (lo < end)
    hit = tl.load(long_docs + lo, mask=inside, other=-1)
    tl.store(pos_out + i, tl.where(inside & (hit == a), lo, -1), mask=live)


def run(short_docs: torch.Tensor, short_qid: torch.Tensor, long_docs: torch.Tensor,
        long_off: torch.Tensor) -> torch.Tensor:
    NA = short_docs.numel()
    pos = torch.empty_like(short_docs)
    BLOCK = 256
    steps = long_docs.numel().bit_length()
    grid = (triton.cdiv(NA, BLOCK),)
    _and_probe[grid](short_docs, short_qid, long_docs, long_off, pos, NA,
                     STEPS=steps, BLOCK=BLOCK, num_warps=4)
    return pos
