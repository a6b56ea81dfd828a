"""Reciprocal rank fusion of a batch of hybrid-search result lists: one launch over (query, slot block)."""
import torch
import triton
import triton.language as tl

RANK_CONSTANT = tl.constexpr(60.0)


@triton.jit
def _rrf_fuse(ids, out, C, K, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    q = tl.program_id(0)
    i = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    row = ids + q * C
    a = tl.load(row + i, mask=i < C, other=-1)
    score = tl.zeros([BLOCK_I], dtype=tl.float32)
    seen = tl.zeros([BLOCK_I], dtype=tl.int32)
    for j0 in range(0, C, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        b = tl.load(row + j, mask=j < C, other=-2)
        w = 1.0 / (RANK_CONSTANT + (j % K + 1).to(tl.float32))
        eq = a[:, None] == b[None, :]
        score += tl.sum(tl.where(eq, w[None, :], 0.0), axis=1)
        seen += tl.sum((eq & (j[None, :] < i[:, None])).to(tl.int32), axis=1)
    keep = (a >= 0) & (seen == 0)
    tl.store(out + q * C + i, tl.where(keep, score, 0.0), mask=i < C)


def run(ids: torch.Tensor) -> torch.Tensor:
    Q, R, K = ids.shape
    C = R * K
    out = torch.empty(Q, C, device=ids.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J = 64, 128
    grid = (Q, triton.cdiv(C, BLOCK_I))
    _rrf_fuse[grid](ids, out, C, K, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    return out
