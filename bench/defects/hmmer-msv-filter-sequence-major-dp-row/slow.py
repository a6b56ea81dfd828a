"""HMMER MSV filter (8-bit multiple-segment Viterbi), one lane per target sequence."""
import torch
import triton
import triton.language as tl


@triton.jit
def _msv_filter(cost_ptr, dsq_ptr, off_ptr, len_ptr, tjb_ptr, dp_ptr, out_ptr,
                N, M, bias, tbm, tec, scale_b,
                BASE: tl.constexpr, ALPHA: tl.constexpr, BLOCK_S: tl.constexpr):
    seq = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    live = seq < N
    L = tl.load(len_ptr + seq, mask=live, other=0)
    off = tl.load(off_ptr + seq, mask=live, other=0)
    tjb = tl.load(tjb_ptr + seq, mask=live, other=0).to(tl.int32)
    # previous DP row of each target: M bytes per target
    dp_row = dp_ptr + seq * M
    xJ = tl.zeros([BLOCK_S], dtype=tl.int32)
    xB = BASE - tjb
    over = tl.zeros([BLOCK_S], dtype=tl.int1)
    for i in range(0, tl.max(L, axis=0)):
        act = i < L
        x = tl.load(dsq_ptr + off + i, mask=act, other=0).to(tl.int32)
        xBv = tl.maximum(xB - tbm, 0)
        mpv = tl.zeros([BLOCK_S], dtype=tl.int32)
        xE = tl.zeros([BLOCK_S], dtype=tl.int32)
        for k in range(0, M):
            c = tl.load(cost_ptr + k * ALPHA + x, mask=act, other=0).to(tl.int32)
            sv = tl.maximum(mpv, xBv)
            sv = tl.minimum(sv + bias, 255)
            sv = tl.maximum(sv - c, 0)
            xE = tl.maximum(xE, sv)
            mpv = tl.load(dp_row + k, mask=act, other=0).to(tl.int32)
            tl.store(dp_row + k, sv.to(tl.uint8), mask=act)
        over = over | (act & (xE >= 255 - bias))
        xJ = tl.where(act, tl.maximum(xJ, xE - tec), xJ)
        xB = tl.where(act, tl.maximum(xJ, BASE) - tjb, xB)
    sc = (xJ - tjb - BASE).to(tl.float32) / scale_b - 3.0
    sc = tl.where(over, float("inf"), sc)
    tl.store(out_ptr + seq, sc, mask=live)


def run(cost, dsq, offsets, lengths, tjb, bias, tbm, tec, scale_b) -> torch.Tensor:
    M, alpha = cost.shape
    N = lengths.shape[0]
    dp = torch.zeros((N, M), device=dsq.device, dtype=torch.uint8)
    out = torch.empty(N, device=dsq.device, dtype=torch.float32)
    BLOCK_S = 128
    _msv_filter[(triton.cdiv(N, BLOCK_S),)](cost, dsq, offsets, lengths, tjb, dp, out,
                                            N, M, bias, tbm, tec, scale_b,
                                            BASE=190, ALPHA=alpha, BLOCK_S=BLOCK_S, num_warps=4)
    return out
