"""Mixed-precision CG update: x += alpha p, r -= alpha Ap, r2 = |r|^2 (QUDA axpyNorm + x update)."""
import torch
import triton
import triton.language as tl

BLOCK = 4096
SUM_BLOCK = 1024


@triton.jit
def _convert_kernel(src, dst, n, BLOCK: tl.constexpr):
    """Precision copy between spinor fields (the blas::copy of the mixed-precision solver)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=ok, other=0.0).to(dst.dtype.element_ty), mask=ok)


@triton.jit
def _cg_update_kernel(x, r, p, ap, x_out, r_out, partials, alpha, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    xv = tl.load(x + offs, mask=ok, other=0.0)
    rv = tl.load(r + offs, mask=ok, other=0.0).to(tl.float32)
    pv = tl.load(p + offs, mask=ok, other=0.0).to(tl.float32)
    av = tl.load(ap + offs, mask=ok, other=0.0).to(tl.float32)
    x_new = xv + alpha * pv
    r_new = rv - alpha * av
    tl.store(x_out + offs, x_new, mask=ok)
    tl.store(r_out + offs, r_new.to(r_out.dtype.element_ty), mask=ok)
    tl.store(partials + pid, tl.sum(r_new * r_new, axis=0))


@triton.jit
def _sum_partials_kernel(partials, total, m, SUM_BLOCK: tl.constexpr):
    acc = tl.zeros([SUM_BLOCK], dtype=tl.float64)
    for start in range(0, m, SUM_BLOCK):
        idx = start + tl.arange(0, SUM_BLOCK)
        acc += tl.load(partials + idx, mask=idx < m, other=0.0).to(tl.float64)
    tl.store(total, tl.sum(acc, axis=0).to(tl.float32))


def run(x: torch.Tensor, r: torch.Tensor, p: torch.Tensor, ap: torch.Tensor, alpha: float) -> tuple:
    n = x.numel()
    grid = (triton.cdiv(n, BLOCK),)
    # the update kernel works in single precision: widen the sloppy fields into fp32 work fields
    r32 = torch.empty_like(x)
    p32 = torch.empty_like(x)
    ap32 = torch.empty_like(x)
    for src, dst in ((r, r32), (p, p32), (ap, ap32)):
        _convert_kernel[grid](src, dst, n, BLOCK=BLOCK, num_warps=8)
    x_out = torch.empty_like(x)
    r_out32 = torch.empty_like(x)
    partials = torch.empty(grid[0], device=x.device, dtype=torch.float32)
    r2 = torch.empty((), device=x.device, dtype=torch.float32)
    _cg_update_kernel[grid](x, r32, p32, ap32, x_out, r_out32, partials, alpha, n, BLOCK=BLOCK, num_warps=8)
    _sum_partials_kernel[(1,)](partials, r2, grid[0], SUM_BLOCK=SUM_BLOCK, num_warps=4)
    # and narrow the new residual back to the sloppy precision
    r_out = torch.empty_like(r)
    _convert_kernel[grid](r_out32, r_out, n, BLOCK=BLOCK, num_warps=8)
    return x_out, r_out, r2
