"""NoisePy phase-only spectral whitening: unit phasor of every bin times the band taper."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _whiten_phase_only(re_ptr, im_ptr, wt_ptr, out_re, out_im, n, F, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        k = offs % F
        w = tl.load(wt_ptr + k, mask=mask, other=0.0)
        xr = tl.load(re_ptr + offs, mask=mask, other=0.0)
        xi = tl.load(im_ptr + offs, mask=mask, other=0.0)
        amp = tl.sqrt(xr * xr + xi * xi)
        nz = amp > 0.0
        scale = w / tl.where(nz, amp, 1.0)
        tl.store(out_re + offs, tl.where(nz, xr * scale, w), mask=mask)
        tl.store(out_im + offs, xi * scale, mask=mask)


def run(re: torch.Tensor, im: torch.Tensor, wt: torch.Tensor) -> tuple:
    rows, F = re.shape
    out_re = torch.empty_like(re)
    out_im = torch.empty_like(im)
    n = rows * F
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _whiten_phase_only[grid](re, im, wt, out_re, out_im, n, F, BLOCK=BLOCK)
    return out_re, out_im
