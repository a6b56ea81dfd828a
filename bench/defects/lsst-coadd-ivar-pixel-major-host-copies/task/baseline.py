"""Inverse-variance weighted coadd: per patch pixel, sum(w * image) / sum(w) over the good visits, w = 1 / variance."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _coadd_pixels(img, var, msk, coadd, wsum, nimg, npix, n_visits, bad_bits, s_pix, s_visit,
                  BLOCK: tl.constexpr, NV: tl.constexpr):
    p = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.arange(0, NV)
    in_pix = p < npix
    inb = in_pix[:, None] & (v < n_visits)[None, :]
    offs = p[:, None] * s_pix + v[None, :] * s_visit
    x = tl.load(img + offs, mask=inb, other=0.0)
    s2 = tl.load(var + offs, mask=inb, other=0.0)
    m = tl.load(msk + offs, mask=inb, other=0)
    good = inb & ((m & bad_bits) == 0) & (s2 > 0)
    w = tl.where(good, 1.0 / s2, 0.0)
    ws = tl.sum(w, axis=1)
    num = tl.sum(tl.where(good, w * x, 0.0), axis=1)
    cnt = tl.sum(good.to(tl.int32), axis=1)
    tl.store(coadd + p, tl.where(ws > 0, num / ws, 0.0), mask=in_pix)
    tl.store(wsum + p, ws, mask=in_pix)
    tl.store(nimg + p, cnt, mask=in_pix)


def run(images: torch.Tensor, variances: torch.Tensor, masks: torch.Tensor, bad_bits: int) -> tuple:
    n, H, W = images.shape
    npix = H * W
    # the visit-major [n, H*W] stacks as given: contiguous along patch pixels
    img = images.reshape(n, npix)
    var = variances.reshape(n, npix)
    msk = masks.reshape(n, npix)
    coadd = torch.empty((H, W), device=images.device, dtype=images.dtype)
    wsum = torch.empty((H, W), device=images.device, dtype=images.dtype)
    nimg = torch.empty((H, W), device=images.device, dtype=torch.int32)
    grid = (triton.cdiv(npix, BLOCK),)
    _coadd_pixels[grid](img, var, msk, coadd, wsum, nimg, npix, n, bad_bits, 1, npix,
                        BLOCK=BLOCK, NV=triton.next_power_of_2(n), num_warps=4)
    return coadd, wsum, nimg
