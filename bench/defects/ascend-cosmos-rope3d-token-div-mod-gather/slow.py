"""Cosmos 3-D RoPE: per-axis cos/sin tables (t: 22, h: 21, w: 21 pairs), rotate-half on [B, S, NH, 128]."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _axis_rows(tab, base, col, mask):
    return tl.load(tab + base[:, None] + col[None, :], mask=mask, other=0.0)


@triton.jit
def _rope3d(x, out, ct, st, ch, sh, cw, sw, n_tok, T, H, W, NH,
            DT: tl.constexpr, DS: tl.constexpr, HALF: tl.constexpr,
            BLOCK_T: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, HALF)
    jt = j < DT
    jh = (j >= DT) & (j < DT + DS)
    jw = j >= DT + DS
    tv = tl.arange(0, BLOCK_T)
    hv = tl.arange(0, BLOCK_N)
    S = T * H * W
    for blk in range(pid, tl.cdiv(n_tok, BLOCK_T), nprog):
        tok = blk * BLOCK_T + tv
        tm = tok < n_tok
        p = tok % S
        t = p // (H * W)
        h = (p // W) % H
        w = p % W
        mt = tm[:, None] & jt[None, :]
        mh = tm[:, None] & jh[None, :]
        mw = tm[:, None] & jw[None, :]
        c = _axis_rows(ct, t * DT, j, mt) + _axis_rows(ch, h * DS, j - DT, mh)
        s = _axis_rows(st, t * DT, j, mt) + _axis_rows(sh, h * DS, j - DT, mh)
        c = (c + _axis_rows(cw, w * DS, j - DT - DS, mw))[:, None, :]
        s = (s + _axis_rows(sw, w * DS, j - DT - DS, mw))[:, None, :]
        for h0 in range(0, NH, BLOCK_N):
            hd = h0 + hv
            m = tm[:, None, None] & (hd < NH)[None, :, None]
            offs = tok[:, None, None] * (NH * 2 * HALF) + hd[None, :, None] * (2 * HALF) + j[None, None, :]
            x1 = tl.load(x + offs, mask=m, other=0.0).to(tl.float32)
            x2 = tl.load(x + offs + HALF, mask=m, other=0.0).to(tl.float32)
            tl.store(out + offs, (x1 * c - x2 * s).to(out.dtype.element_ty), mask=m)
            tl.store(out + offs + HALF, (x2 * c + x1 * s).to(out.dtype.element_ty), mask=m)


def run(x, cos_t, sin_t, cos_h, sin_h, cos_w, sin_w):
    B, S, NH, D = x.shape
    T, H, W = cos_t.shape[0], cos_h.shape[0], cos_w.shape[0]
    out = torch.empty_like(x)
    BLOCK_T = 16
    blocks = triton.cdiv(B * S, BLOCK_T)
    _rope3d[(min(NUM_CORES, blocks),)](x, out, cos_t, sin_t, cos_h, sin_h, cos_w, sin_w, B * S, T, H, W, NH,
                                       DT=cos_t.shape[1], DS=cos_h.shape[1], HALF=D // 2,
                                       BLOCK_T=BLOCK_T, BLOCK_N=min(4, triton.next_power_of_2(NH)))
    return out
