"""Reciprocal rank fusion of hybrid-search result lists: fuse one query's R ranked lists per launch."""
import torch
import triton
import triton.language as tl

RANK_CONSTANT = tl.constexpr(60.0)


@triton.jit
def _rrf_fuse_query(ids, out, C, K, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    i = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    a = tl.load(ids + i, mask=i < C, other=-1)
    score = tl.zeros([BLOCK_I], dtype=tl.float32)
    seen = tl.zeros([BLOCK_I], dtype=tl.int32)
    for j0 in range(0, C, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        b = tl.load(ids + j, mask=j < C, other=-2)
        w = 1.0 / (RANK_CONSTANT + (j % K + 1).to(tl.float32))
        eq = a[:, None] == b[None, :]
        score += tl.sum(tl.where(eq, w[None, :], 0.0), axis=1)
        seen += tl.sum((eq & (j[None, :] < i[:, None])).to(tl.int32), axis=1)
    keep = (a >= 0) & (seen == 0)
    tl.store(out + i, tl.where(keep, score, 0.0), mask=i < C)


def fuse_query(ids_q: torch.Tensor, out_q: torch.Tensor) -> None:
    R, K = ids_q.shape
    C = R * K
    BLOCK_I, BLOCK_J = 64, 128
    grid = (triton.cdiv(C, BLOCK_I),)
    _rrf_fuse_query[grid](ids_q, out_q, C, K, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)


def run(ids: torch.Tensor) -> torch.Tensor:
    Q, R, K = ids.shape
    out = torch.empty(Q, R * K, device=ids.device, dtype=torch.float32)
    for q in range(Q):
        fuse_query(ids[q], out[q])
    return out
