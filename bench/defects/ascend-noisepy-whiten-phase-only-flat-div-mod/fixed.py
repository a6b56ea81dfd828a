"""NoisePy phase-only spectral whitening: unit phasor of every bin times the band taper."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _whiten_phase_only(re_ptr, im_ptr, wt_ptr, out_re, out_im, rows, F, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nfb = tl.cdiv(F, BLOCK)
    for item in range(pid, rows * nfb, nprog):
        row = item // nfb
        k = (item - row * nfb) * BLOCK + tl.arange(0, BLOCK)
        mask = k < F
        offs = row * F + k
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
    grid = (min(_VECTOR_CORES, rows * triton.cdiv(F, BLOCK)),)
    _whiten_phase_only[grid](re, im, wt, out_re, out_im, rows, F, BLOCK=BLOCK)
    return out_re, out_im
