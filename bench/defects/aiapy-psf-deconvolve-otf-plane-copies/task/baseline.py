"""Richardson-Lucy OTF product on interleaved (view_as_real) spectra: out = spec * otf or spec * conj(otf)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _otf_product(s_re, s_im, h_re, h_im, out, n, stride,
                 CONJ: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(s_re + offs * stride, mask=m, other=0.0)
    b = tl.load(s_im + offs * stride, mask=m, other=0.0)
    c = tl.load(h_re + offs * stride, mask=m, other=0.0)
    d = tl.load(h_im + offs * stride, mask=m, other=0.0)
    if CONJ:
        d = -d
    tl.store(out + 2 * offs, a * c - b * d, mask=m)
    tl.store(out + 2 * offs + 1, a * d + b * c, mask=m)


def run(spec: torch.Tensor, otf: torch.Tensor, conjugate: bool) -> torch.Tensor:
    n = spec.shape[0] * spec.shape[1]
    out = torch.empty_like(spec)
    # real / imaginary parts as strided views of the interleaved spectra: no copies
    s_re, s_im = spec[..., 0], spec[..., 1]
    h_re, h_im = otf[..., 0], otf[..., 1]
    stride = s_re.stride(-1)
    _otf_product[(triton.cdiv(n, BLOCK),)](s_re, s_im, h_re, h_im, out, n, stride,
                                           CONJ=bool(conjugate), BLOCK=BLOCK, num_warps=4)
    return out
