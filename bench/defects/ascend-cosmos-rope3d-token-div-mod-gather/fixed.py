"""Cosmos 3-D RoPE: per-axis cos/sin tables (t: 22, h: 21, w: 21 pairs), rotate-half on [B, S, NH, 128]."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _rope3d(x, out, ct, st, ch, sh, cw, sw, n_rows, T, H, W, NH,
            DT: tl.constexpr, DS: tl.constexpr, HALF: tl.constexpr,
            BLOCK_W: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, HALF)
    jt = j < DT
    jh = (j >= DT) & (j < DT + DS)
    jw = j >= DT + DS
    wv = tl.arange(0, BLOCK_W)
    hv = tl.arange(0, BLOCK_N)
    n_wb = tl.cdiv(W, BLOCK_W)
    for item in range(pid, n_rows * n_wb, nprog):
        row = item // n_wb
        w = (item - row * n_wb) * BLOCK_W + wv
        wm = w < W
        h = row % H
        t = (row // H) % T
        c_th = tl.load(ct + t * DT + j, mask=jt, other=0.0) + tl.load(ch + h * DS + j - DT, mask=jh, other=0.0)
        s_th = tl.load(st + t * DT + j, mask=jt, other=0.0) + tl.load(sh + h * DS + j - DT, mask=jh, other=0.0)
        wj = w[:, None] * DS + j[None, :] - DT - DS
        mw = wm[:, None] & jw[None, :]
        c = (tl.load(cw + wj, mask=mw, other=0.0) + c_th[None, :])[:, None, :]
        s = (tl.load(sw + wj, mask=mw, other=0.0) + s_th[None, :])[:, None, :]
        tok = row * W + w
        for h0 in range(0, NH, BLOCK_N):
            hd = h0 + hv
            m = wm[:, None, None] & (hd < NH)[None, :, None]
            offs = tok[:, None, None] * (NH * 2 * HALF) + hd[None, :, None] * (2 * HALF) + j[None, None, :]
            x1 = tl.load(x + offs, mask=m, other=0.0).to(tl.float32)
            x2 = tl.load(x + offs + HALF, mask=m, other=0.0).to(tl.float32)
            tl.store(out + offs, (x1 * c - x2 * s).to(out.dtype.element_ty), mask=m)
            tl.store(out + offs + HALF, (x2 * c + x1 * s).to(out.dtype.element_ty), mask=m)


def run(x, cos_t, sin_t, cos_h, sin_h, cos_w, sin_w):
    B, S, NH, D = x.shape
    T, H, W = cos_t.shape[0], cos_h.shape[0], cos_w.shape[0]
    out = torch.empty_like(x)
    BLOCK_W = min(16, triton.next_power_of_2(W))
    items = B * T * H * triton.cdiv(W, BLOCK_W)
    _rope3d[(min(NUM_CORES, items),)](x, out, cos_t, sin_t, cos_h, sin_h, cos_w, sin_w, B * T * H, T, H, W, NH,
                                      DT=cos_t.shape[1], DS=cos_h.shape[1], HALF=D // 2,
                                      BLOCK_W=BLOCK_W, BLOCK_N=min(4, triton.next_power_of_2(NH)))
    return out
