"""Profile peak picking (PeakPickerHiRes apex test + 3-point weighted centroid) on Ascend."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
SNR = 3.0


@triton.jit
def _peak_pick(mz_ptr, int_ptr, noise_ptr, cmz_ptr, cint_ptr, S, N, SNR_: tl.constexpr,
               BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_seg = tl.cdiv(N, BLOCK)
    for t in range(pid, S * n_seg, nprog):
        s = t // n_seg
        seg = t % n_seg
        cols = seg * BLOCK + tl.arange(0, BLOCK)
        inb = cols < N
        has_l = (cols >= 1) & inb
        has_r = (cols + 1) < N
        row = s * N
        thr = tl.load(noise_ptr + s) * SNR_
        x = tl.load(int_ptr + row + cols, mask=inb, other=0.0)
        m = tl.load(mz_ptr + row + cols, mask=inb, other=0.0)
        xl = tl.load(int_ptr + row + cols - 1, mask=has_l, other=float("inf"))
        xr = tl.load(int_ptr + row + cols + 1, mask=has_r, other=float("inf"))
        ml = tl.load(mz_ptr + row + cols - 1, mask=has_l, other=0.0)
        mr = tl.load(mz_ptr + row + cols + 1, mask=has_r, other=0.0)
        apex = (x > xl) & (x > xr) & (x >= thr)
        c = (ml * xl + m * x + mr * xr) / (xl + x + xr)
        tl.store(cmz_ptr + row + cols, tl.where(apex, c, 0.0), mask=inb)
        tl.store(cint_ptr + row + cols, tl.where(apex, x, 0.0), mask=inb)


def run(mz: torch.Tensor, inten: torch.Tensor, noise: torch.Tensor) -> tuple:
    S, N = inten.shape
    cmz = torch.empty_like(mz)
    cint = torch.empty_like(inten)
    BLOCK = min(4096, triton.next_power_of_2(N))
    grid = (min(_VECTOR_CORES, S * triton.cdiv(N, BLOCK)),)
    _peak_pick[grid](mz, inten, noise, cmz, cint, S, N, SNR_=SNR, BLOCK=BLOCK)
    return cmz, cint
