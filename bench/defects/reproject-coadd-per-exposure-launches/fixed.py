"""Inverse-variance weighted coadd: coadd = sum w*x / sum w over the exposure axis, plus the weight map."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _coadd(img, wht, out, den, n_exp, npix, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < npix
    acc_n = tl.zeros([BLOCK], dtype=tl.float32)
    acc_d = tl.zeros([BLOCK], dtype=tl.float32)
    for e in range(n_exp):
        x = tl.load(img + e * npix + offs, mask=ok, other=0.0)
        w = tl.load(wht + e * npix + offs, mask=ok, other=0.0)
        acc_n += w * x
        acc_d += w
    coadd = tl.where(acc_d > 0.0, acc_n / tl.where(acc_d > 0.0, acc_d, 1.0), 0.0)
    tl.store(out + offs, coadd, mask=ok)
    tl.store(den + offs, acc_d, mask=ok)


def run(images: torch.Tensor, weights: torch.Tensor) -> tuple:
    n_exp, h, w = images.shape
    npix = h * w
    den = torch.empty(h, w, device=images.device, dtype=torch.float32)
    coadd = torch.empty(h, w, device=images.device, dtype=torch.float32)
    grid = (triton.cdiv(npix, BLOCK),)
    _coadd[grid](images, weights, coadd, den, n_exp, npix, BLOCK=BLOCK, num_warps=4)
    return coadd, den
