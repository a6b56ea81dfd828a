"""AFNO2D spectral block MLP with soft-thresholding: persistent programs over (mode tile, channel block)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _cmatmul(ar, ai, br, bi):
    re = tl.sum(ar[:, :, None] * br[None, :, :], axis=1) - tl.sum(ai[:, :, None] * bi[None, :, :], axis=1)
    im = tl.sum(ai[:, :, None] * br[None, :, :], axis=1) + tl.sum(ar[:, :, None] * bi[None, :, :], axis=1)
    return re, im


@triton.jit
def _afno_block_mlp(x_re, x_im, w1, b1, w2, b2, out, T, NB, BS, lam,
                    NPROG: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr, HC: tl.constexpr):
    pid = tl.program_id(0)
    D = NB * BS
    rows = tl.arange(0, BLOCK_T)
    ch = tl.arange(0, BLOCK_C)
    ch_ok = ch < BS
    hid = tl.arange(0, HC)
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
        yr = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
        yi = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
        for j0 in range(0, BS, HC):
            j = j0 + hid
            w1b = w1 + blk * BS * BS + ch[:, None] * BS + j[None, :]
            w1r = tl.load(w1b, mask=ch_ok[:, None], other=0.0)
            w1i = tl.load(w1b + im_w, mask=ch_ok[:, None], other=0.0)
            hr, hi = _cmatmul(xr, xi, w1r, w1i)
            hr = tl.maximum(hr + tl.load(b1 + blk * BS + j)[None, :], 0.0)
            hi = tl.maximum(hi + tl.load(b1 + im_b + blk * BS + j)[None, :], 0.0)
            w2b = w2 + blk * BS * BS + j[:, None] * BS + ch[None, :]
            w2r = tl.load(w2b, mask=ch_ok[None, :], other=0.0)
            w2i = tl.load(w2b + im_w, mask=ch_ok[None, :], other=0.0)
            pr, pi = _cmatmul(hr, hi, w2r, w2i)
            yr += pr
            yi += pi
        yr += tl.load(b2 + blk * BS + ch, mask=ch_ok, other=0.0)[None, :]
        yi += tl.load(b2 + im_b + blk * BS + ch, mask=ch_ok, other=0.0)[None, :]
        yr = yr - tl.minimum(tl.maximum(yr, -lam), lam)
        yi = yi - tl.minimum(tl.maximum(yi, -lam), lam)
        tl.store(out + x_offs, yr, mask=x_mask)
        tl.store(out + T * D + x_offs, yi, mask=x_mask)


def run(x_re, x_im, w1, b1, w2, b2):
    T, D = x_re.shape
    NB, BS = w1.shape[1], w1.shape[2]
    assert BS % 8 == 0
    out = torch.empty((2, T, D), device=x_re.device, dtype=torch.float32)
    BLOCK_T = 8
    n_items = triton.cdiv(T, BLOCK_T) * NB
    nprog = min(n_items, NUM_VECTOR_CORES)
    _afno_block_mlp[(nprog,)](x_re, x_im, w1, b1, w2, b2, out, T, NB, BS, 0.01,
                              NPROG=nprog, BLOCK_T=BLOCK_T, BLOCK_C=triton.next_power_of_2(BS), HC=8)
    return out
