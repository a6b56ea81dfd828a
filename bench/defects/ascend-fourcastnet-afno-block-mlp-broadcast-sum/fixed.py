"""AFNO2D spectral block MLP with soft-thresholding: persistent programs over (mode tile, channel block)."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _afno_block_mlp(x_re, x_im, w1, b1, w2, b2, out, T, NB, BS, lam,
                    NPROG: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    D = NB * BS
    rows = tl.arange(0, BLOCK_T)
    ch = tl.arange(0, BLOCK_C)
    ch_ok = ch < BS
    w_offs = ch[:, None] * BS + ch[None, :]
    w_mask = ch_ok[:, None] & ch_ok[None, :]
    im_w = NB * BS * BS
    im_b = NB * BS
    n_items = tl.cdiv(T, BLOCK_T) * NB
    for item in range(pid, n_items, NPROG):
        blk = item % NB
        t = (item // NB) * BLOCK_T + rows
        x_offs = t[:, None] * D + blk * BS + ch[None, :]
        x_mask = (t[:, None] < T) & ch_ok[None, :]
        xr = tl.load(x_re + x_offs, mask=x_mask, other=0.0)
        xi = tl.load(x_im + x_offs, mask=x_mask, other=0.0)
        wb = w1 + blk * BS * BS + w_offs
        wr = tl.load(wb, mask=w_mask, other=0.0)
        wi = tl.load(wb + im_w, mask=w_mask, other=0.0)
        br = tl.load(b1 + blk * BS + ch, mask=ch_ok, other=0.0)
        bi = tl.load(b1 + im_b + blk * BS + ch, mask=ch_ok, other=0.0)
        hr = tl.maximum(tl.dot(xr, wr) - tl.dot(xi, wi) + br[None, :], 0.0)
        hi = tl.maximum(tl.dot(xi, wr) + tl.dot(xr, wi) + bi[None, :], 0.0)
        wb = w2 + blk * BS * BS + w_offs
        wr = tl.load(wb, mask=w_mask, other=0.0)
        wi = tl.load(wb + im_w, mask=w_mask, other=0.0)
        br = tl.load(b2 + blk * BS + ch, mask=ch_ok, other=0.0)
        bi = tl.load(b2 + im_b + blk * BS + ch, mask=ch_ok, other=0.0)
        yr = tl.dot(hr, wr) - tl.dot(hi, wi) + br[None, :]
        yi = tl.dot(hi, wr) + tl.dot(hr, wi) + bi[None, :]
        yr = yr - tl.minimum(tl.maximum(yr, -lam), lam)
        yi = yi - tl.minimum(tl.maximum(yi, -lam), lam)
        tl.store(out + x_offs, yr, mask=x_mask)
        tl.store(out + T * D + x_offs, yi, mask=x_mask)


def run(x_re, x_im, w1, b1, w2, b2):
    T, D = x_re.shape
    NB, BS = w1.shape[1], w1.shape[2]
    out = torch.empty((2, T, D), device=x_re.device, dtype=torch.float32)
    BLOCK_T = 32
    n_items = triton.cdiv(T, BLOCK_T) * NB
    nprog = min(n_items, NUM_AI_CORES)
    _afno_block_mlp[(nprog,)](x_re, x_im, w1, b1, w2, b2, out, T, NB, BS, 0.01,
                              NPROG=nprog, BLOCK_T=BLOCK_T, BLOCK_C=max(16, triton.next_power_of_2(BS)))
    return out
