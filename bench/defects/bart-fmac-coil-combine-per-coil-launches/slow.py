"""SENSE adjoint coil combination x = sum_c conj(S_c) * y_c over interleaved-complex coil images."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _coil_accumulate(coil_img, sens, out, coil, n_pix, ACCUMULATE: tl.constexpr, BLOCK: tl.constexpr):
    pix = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = pix[:, None] * 2 + tl.arange(0, 2)[None, :]
    mask = offs < 2 * n_pix
    base = coil * n_pix * 2
    y_re, y_im = tl.split(tl.load(coil_img + base + offs, mask=mask, other=0.0))
    s_re, s_im = tl.split(tl.load(sens + base + offs, mask=mask, other=0.0))
    re = s_re * y_re + s_im * y_im
    im = s_re * y_im - s_im * y_re
    if ACCUMULATE:
        p_re, p_im = tl.split(tl.load(out + offs, mask=mask, other=0.0))
        re += p_re
        im += p_im
    tl.store(out + offs, tl.join(re, im), mask=mask)


def run(coil_img: torch.Tensor, sens: torch.Tensor) -> torch.Tensor:
    n_coils, h, w, _ = coil_img.shape
    n_pix = h * w
    out = torch.empty(h, w, 2, device=coil_img.device, dtype=torch.float32)
    grid = (triton.cdiv(n_pix, BLOCK),)
    for c in range(n_coils):
        _coil_accumulate[grid](coil_img, sens, out, c, n_pix, ACCUMULATE=c > 0, BLOCK=BLOCK, num_warps=4)
    return out
