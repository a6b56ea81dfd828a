"""AND-query probe of short posting lists into long ones: tiled doc-id match against the long list."""
import torch
import triton
import triton.language as tl


@triton.jit
def _and_probe(short_docs, short_qid, long_docs, long_off, pos_out, NA,
               BLOCK_A: tl.constexpr, BLOCK_B: tl.constexpr):
    i = tl.program_id(0) * BLOCK_A + tl.arange(0, BLOCK_A)
    live = i < NA
    a = tl.load(short_docs + i, mask=live, other=-1)
    qid = tl.load(short_qid + i, mask=live, other=0)
    lo = tl.load(long_off + qid, mask=live, other=0)
    hi = tl.load(long_off + qid + 1, mask=live, other=0)
    start = tl.min(tl.where(live, lo, 2147483647), axis=0)
    stop = tl.max(tl.where(live, hi, 0), axis=0)
    pos = tl.full([BLOCK_A], -1, dtype=tl.int32)
    for j0 in range(start, stop, BLOCK_B):
        j = j0 + tl.arange(0, BLOCK_B)
        b = tl.load(long_docs + j, mask=j < stop, other=-2)
        own = (j[None, :] >= lo[:, None]) & (j[None, :] < hi[:, None])
        match = own & (a[:, None] == b[None, :])
        pos = tl.maximum(pos, tl.max(tl.where(match, j[None, :], -1), axis=1))
    tl.store(pos_out + i, pos, mask=live)


def run(short_docs: torch.Tensor, short_qid: torch.Tensor, long_docs: torch.Tensor,
        long_off: torch.Tensor) -> torch.Tensor:
    NA = short_docs.numel()
    pos = torch.empty_like(short_docs)
    BLOCK_A, BLOCK_B = 64, 128
    grid = (triton.cdiv(NA, BLOCK_A),)
    _and_probe[grid](short_docs, short_qid, long_docs, long_off, pos, NA,
                     BLOCK_A=BLOCK_A, BLOCK_B=BLOCK_B, num_warps=4)
    return pos
