"""DCCRN complex ratio mask ('C' mode): enhanced spectrum = spec * mask, bins stacked real over imag."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _crm_apply(spec, mask, out, B, F, T, BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = F * T
    mplane = (F - 1) * T
    f = tl.arange(0, BLOCK_F)
    in_f = f < F
    has_mask = in_f & (f > 0)
    m_f = tl.maximum(f - 1, 0)
    for frame in range(pid, B * T, nprog):
        b = frame // T
        t = frame - b * T
        x_col = spec + b * 2 * plane + f * T + t
        m_col = mask + b * 2 * mplane + m_f * T + t
        o_col = out + b * 2 * plane + f * T + t
        xr = tl.load(x_col, mask=in_f, other=0.0)
        xi = tl.load(x_col + plane, mask=in_f, other=0.0)
        mr = tl.load(m_col, mask=has_mask, other=0.0)
        mi = tl.load(m_col + mplane, mask=has_mask, other=0.0)
        tl.store(o_col, xr * mr - xi * mi, mask=in_f)
        tl.store(o_col + plane, xr * mi + xi * mr, mask=in_f)


def run(spec: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    B, F2, T = spec.shape
    F = F2 // 2
    out = torch.empty_like(spec)
    grid = (min(NUM_CORES, B * T),)
    _crm_apply[grid](spec, mask, out, B, F, T, BLOCK_F=triton.next_power_of_2(F))
    return out
