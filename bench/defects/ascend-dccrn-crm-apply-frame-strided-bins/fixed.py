"""DCCRN complex ratio mask ('C' mode): enhanced spectrum = spec * mask, bins stacked real over imag."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _crm_apply(spec, mask, out, B, F, T, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = F * T
    mplane = (F - 1) * T
    for row in range(pid, B * F, nprog):
        b = row // F
        f = row - b * F
        keep = (f > 0).to(tl.float32)
        x_row = spec + b * 2 * plane + f * T
        m_row = mask + b * 2 * mplane + tl.maximum(f - 1, 0) * T
        o_row = out + b * 2 * plane + f * T
        for t0 in range(0, T, BLOCK_T):
            t = t0 + tl.arange(0, BLOCK_T)
            in_t = t < T
            xr = tl.load(x_row + t, mask=in_t, other=0.0)
            xi = tl.load(x_row + plane + t, mask=in_t, other=0.0)
            mr = tl.load(m_row + t, mask=in_t, other=0.0) * keep
            mi = tl.load(m_row + mplane + t, mask=in_t, other=0.0) * keep
            tl.store(o_row + t, xr * mr - xi * mi, mask=in_t)
            tl.store(o_row + plane + t, xr * mi + xi * mr, mask=in_t)


def run(spec: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    B, F2, T = spec.shape
    F = F2 // 2
    out = torch.empty_like(spec)
    grid = (min(NUM_CORES, B * F),)
    _crm_apply[grid](spec, mask, out, B, F, T, BLOCK_T=1024)
    return out
