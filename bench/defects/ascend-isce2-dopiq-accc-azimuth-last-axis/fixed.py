"""ACCC Doppler centroid: per range bin, the mean of s[a + 1] * conj(s[a]) over the pulses."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BA = 16    # pulses per step
BC = 128   # range bins per strip


@triton.jit
def _accc(re, im, c_re, c_im, n_az, n_rg, inv_pairs, BA: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for strip in range(pid, tl.cdiv(n_rg, BC), nprog):
        cols = strip * BC + tl.arange(0, BC)
        cmask = cols < n_rg
        acc_re = tl.zeros([BA, BC], dtype=tl.float32)
        acc_im = tl.zeros([BA, BC], dtype=tl.float32)
        for a0 in range(0, n_az - 1, BA):
            rows = a0 + tl.arange(0, BA)
            mask = (rows < n_az - 1)[:, None] & cmask[None, :]
            offs = rows[:, None] * n_rg + cols[None, :]
            r0 = tl.load(re + offs, mask=mask, other=0.0)
            i0 = tl.load(im + offs, mask=mask, other=0.0)
            r1 = tl.load(re + offs + n_rg, mask=mask, other=0.0)
            i1 = tl.load(im + offs + n_rg, mask=mask, other=0.0)
            acc_re += r1 * r0 + i1 * i0
            acc_im += i1 * r0 - r1 * i0
        tl.store(c_re + cols, tl.sum(acc_re, axis=0) * inv_pairs, mask=cmask)
        tl.store(c_im + cols, tl.sum(acc_im, axis=0) * inv_pairs, mask=cmask)


def run(re: torch.Tensor, im: torch.Tensor) -> tuple:
    n_az, n_rg = re.shape
    c_re = torch.empty(n_rg, device=re.device, dtype=re.dtype)
    c_im = torch.empty(n_rg, device=re.device, dtype=re.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_rg, BC)),)
    _accc[grid](re, im, c_re, c_im, n_az, n_rg, 1.0 / (n_az - 1), BA=BA, BC=BC)
    return c_re, c_im
