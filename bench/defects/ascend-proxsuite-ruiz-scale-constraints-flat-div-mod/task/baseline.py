"""ProxSuite dense Ruiz equilibration, scaling step: out = diag(delta[n:]) @ M @ diag(delta[:n])."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ruiz_scale_kernel(mat, delta, out, m, n, stride_m, stride_o,
                       BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(m, BR), nprog):
        rows = rb * BR + tl.arange(0, BR)
        rmask = rows < m
        d_row = tl.load(delta + n + rows, mask=rmask, other=0.0)
        for c0 in range(0, n, BC):
            cols = c0 + tl.arange(0, BC)
            cmask = cols < n
            mask = rmask[:, None] & cmask[None, :]
            d_col = tl.load(delta + cols, mask=cmask, other=0.0)
            a = tl.load(mat + rows[:, None] * stride_m + cols[None, :], mask=mask, other=0.0)
            tl.store(out + rows[:, None] * stride_o + cols[None, :], a * d_row[:, None] * d_col[None, :],
                     mask=mask)


def run(mat: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
    m, n = mat.shape
    out = torch.empty((m, n), device=mat.device, dtype=mat.dtype)
    BR, BC = 16, 256
    grid = (min(_VECTOR_CORES, triton.cdiv(m, BR)),)
    _ruiz_scale_kernel[grid](mat, delta, out, m, n, mat.stride(0), out.stride(0), BR=BR, BC=BC)
    return out
