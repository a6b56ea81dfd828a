"""Mixed-precision CG update: x += alpha p, r -= alpha Ap, r2 = |r|^2 (QUDA axpyNorm + x update)."""
import torch
import triton
import triton.language as tl

BLOCK = 4096
SUM_BLOCK = 1024


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
    x_out = torch.empty_like(x)
    r_out = torch.empty_like(r)
    partials = torch.empty(grid[0], device=x.device, dtype=torch.float32)
    r2 = torch.empty((), device=x.device, dtype=torch.float32)
    _cg_update_kernel[grid](x, r, p, ap, x_out, r_out, partials, alpha, n, BLOCK=BLOCK, num_warps=8)
    _sum_partials_kernel[(1,)](partials, r2, grid[0], SUM_BLOCK=SUM_BLOCK, num_warps=4)
    return x_out, r_out, r2
