"""ProxSuite dense Ruiz equilibration, scaling step: out = diag(delta[n:]) @ M @ diag(delta[:n])."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ruiz_scale_kernel(mat, delta, out, m, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = m * n
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < total
        i = offs // n
        j = offs % n
        d_row = tl.load(delta + n + i, mask=mask, other=0.0)
        d_col = tl.load(delta + j, mask=mask, other=0.0)
        a = tl.load(mat + offs, mask=mask, other=0.0)
        tl.store(out + offs, a * d_row * d_col, mask=mask)


def run(mat: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
    m, n = mat.shape
    out = torch.empty((m, n), device=mat.device, dtype=mat.dtype)
    BLOCK = 16 * 256
    grid = (min(_VECTOR_CORES, triton.cdiv(m * n, BLOCK)),)
    _ruiz_scale_kernel[grid](mat, delta, out, m, n, BLOCK=BLOCK)
    return out
