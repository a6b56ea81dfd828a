"""MMseqs2 gapless prefilter: max ungapped diagonal score of a query PSSM against each padded target."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gapless_scores(pssm_ptr, tgt_ptr, len_ptr, out_ptr, Lq, W,
                    ALPHA: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0)
    L = tl.load(len_ptr + t)
    row = tgt_ptr + t * W
    lanes = tl.arange(0, BLOCK_D)
    best = tl.zeros([BLOCK_D], dtype=tl.int32)
    # one lane per diagonal d = i - k, blocks of BLOCK_D diagonals across the padded target row
    for d0 in range(1 - Lq, L, BLOCK_D):
        d = d0 + lanes
        h = tl.zeros([BLOCK_D], dtype=tl.int32)
        for k in range(0, Lq):
            i = d + k
            ok = (i >= 0) & (i < L)
            res = tl.load(row + i, mask=ok, other=0).to(tl.int32)
            e = tl.load(pssm_ptr + k * ALPHA + res, mask=ok, other=0).to(tl.int32)
            h = tl.where(ok, tl.maximum(h, 0) + e, 0)
            best = tl.maximum(best, h)
    tl.store(out_ptr + t, tl.max(best, axis=0))


def run(pssm: torch.Tensor, targets: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    Lq, alpha = pssm.shape
    N, W = targets.shape
    out = torch.empty(N, device=targets.device, dtype=torch.int32)
    _gapless_scores[(N,)](pssm, targets, lengths, out, Lq, W, ALPHA=alpha, BLOCK_D=128, num_warps=4)
    return out
