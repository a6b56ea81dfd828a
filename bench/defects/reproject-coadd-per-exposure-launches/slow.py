"""Inverse-variance weighted coadd: coadd = sum w*x / sum w over the exposure axis, plus the weight map."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _accumulate(img, wht, num, den, npix, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < npix
    x = tl.load(img + offs, mask=ok, other=0.0)
    w = tl.load(wht + offs, mask=ok, other=0.0)
    acc_n = tl.load(num + offs, mask=ok, other=0.0)
    acc_d = tl.load(den + offs, mask=ok, other=0.0)
    tl.store(num + offs, acc_n + w * x, mask=ok)
    tl.store(den + offs, acc_d + w, mask=ok)


@triton.jit
def _normalise(num, den, out, npix, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < npix
    acc_n = tl.load(num + offs, mask=ok, other=0.0)
    acc_d = tl.load(den + offs, mask=ok, other=0.0)
    coadd = tl.where(acc_d > 0.0, acc_n / tl.where(acc_d > 0.0, acc_d, 1.0), 0.0)
    tl.store(out + offs, coadd, mask=ok)


def run(images: torch.Tensor, weights: torch.Tensor) -> tuple:
    n_exp, h, w = images.shape
    npix = h * w
    num = torch.zeros(h, w, device=images.device, dtype=torch.float32)
    den = torch.zeros(h, w, device=images.device, dtype=torch.float32)
    coadd = torch.empty(h, w, device=images.device, dtype=torch.float32)
    grid = (triton.cdiv(npix, BLOCK),)
    for e in range(n_exp):
        _accumulate[grid](images[e], weights[e], num, den, npix, BLOCK=BLOCK, num_warps=4)
    _normalise[grid](num, den, coadd, npix, BLOCK=BLOCK, num_warps=4)
    return coadd, den
