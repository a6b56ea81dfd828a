"""OSEM sinogram ratio (STIR divide_and_truncate): out = mult * truncate(y / (mult * fwd + add))."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _em_ratio_kernel(y_ptr, fwd_ptr, mult_ptr, add_ptr, out_ptr, n, max_quotient,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        y = tl.load(y_ptr + offs, mask=m, other=0.0)
        f = tl.load(fwd_ptr + offs, mask=m, other=0.0)
        mu = tl.load(mult_ptr + offs, mask=m, other=0.0)
        a = tl.load(add_ptr + offs, mask=m, other=0.0)
        ybar = mu * f + a
        q = tl.where(ybar * max_quotient <= y, max_quotient, y / ybar)
        q = tl.where(y > 0.0, q, 0.0)
        tl.store(out_ptr + offs, mu * q, mask=m)


def run(prompts: torch.Tensor, fwd: torch.Tensor, mult: torch.Tensor, additive: torch.Tensor,
        max_quotient: float) -> torch.Tensor:
    out = torch.empty_like(prompts)
    n = prompts.numel()
    grid = (min(_VECTOR_CORES, triton.cdiv(n, _BLOCK)),)
    # the whole sinogram (all segments and axial positions) in one launch
    _em_ratio_kernel[grid](prompts, fwd, mult, additive, out, n, max_quotient, BLOCK=_BLOCK)
    return out
