"""Range compression: every range spectrum line times the chirp's reference spectrum."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BR = 4      # lines per block
BC = 1024   # frequency bins per block


@triton.jit
def _range_compress(x_re, x_im, h_re, h_im, y_re, y_im, n_lines, n_fft,
                    BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cb = tl.cdiv(n_fft, BC)
    for blk in range(pid, tl.cdiv(n_lines, BR) * n_cb, nprog):
        rows = (blk // n_cb) * BR + tl.arange(0, BR)
        f = (blk % n_cb) * BC + tl.arange(0, BC)
        fmask = f < n_fft
        mask = (rows < n_lines)[:, None] & fmask[None, :]
        offs = rows[:, None] * n_fft + f[None, :]
        hr = tl.load(h_re + f, mask=fmask, other=0.0)[None, :]
        hi = tl.load(h_im + f, mask=fmask, other=0.0)[None, :]
        xr = tl.load(x_re + offs, mask=mask, other=0.0)
        xi = tl.load(x_im + offs, mask=mask, other=0.0)
        tl.store(y_re + offs, xr * hr - xi * hi, mask=mask)
        tl.store(y_im + offs, xr * hi + xi * hr, mask=mask)


def run(x_re, x_im, h_re, h_im) -> tuple:
    n_lines, n_fft = x_re.shape
    y_re = torch.empty_like(x_re)
    y_im = torch.empty_like(x_im)
    n_blocks = triton.cdiv(n_lines, BR) * triton.cdiv(n_fft, BC)
    grid = (min(_VECTOR_CORES, n_blocks),)
    _range_compress[grid](x_re, x_im, h_re, h_im, y_re, y_im, n_lines, n_fft, BR=BR, BC=BC)
    return y_re, y_im
