"""Range compression: every range spectrum line times the chirp's reference spectrum."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _range_compress(x_re, x_im, h_re, h_im, y_re, y_im, n_total, n_fft, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    for blk in range(pid, tl.cdiv(n_total, BLOCK), nprog):
        offs = blk * BLOCK + lane
        mask = offs < n_total
        f = offs % n_fft
        hr = tl.load(h_re + f, mask=mask, other=0.0)
        hi = tl.load(h_im + f, mask=mask, other=0.0)
        xr = tl.load(x_re + offs, mask=mask, other=0.0)
        xi = tl.load(x_im + offs, mask=mask, other=0.0)
        tl.store(y_re + offs, xr * hr - xi * hi, mask=mask)
        tl.store(y_im + offs, xr * hi + xi * hr, mask=mask)


def run(x_re, x_im, h_re, h_im) -> tuple:
    n_lines, n_fft = x_re.shape
    y_re = torch.empty_like(x_re)
    y_im = torch.empty_like(x_im)
    n_total = n_lines * n_fft
    grid = (min(_VECTOR_CORES, triton.cdiv(n_total, BLOCK)),)
    _range_compress[grid](x_re, x_im, h_re, h_im, y_re, y_im, n_total, n_fft, BLOCK=BLOCK)
    return y_re, y_im
