"""MODFLOW 6 IMS convergence check: largest head change (signed, with its cell) and residual L2 norm."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _dvmax_rnorm(x_new, x_old, resid, idomain, dv_out, loc_out, rnorm_out, n, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], -1.0, tl.float32)     # running max |dv| per lane (-1: no active cell yet)
    best_dv = tl.zeros([BLOCK], dtype=tl.float32)
    best_at = tl.zeros([BLOCK], dtype=tl.int32)
    rsq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + lanes
        active = tl.load(idomain + offs, mask=offs < n, other=0) > 0
        dv = tl.load(x_new + offs, mask=active, other=0.0) - tl.load(x_old + offs, mask=active, other=0.0)
        r = tl.load(resid + offs, mask=active, other=0.0)
        mag = tl.where(active, tl.abs(dv), -1.0)
        bigger = mag > best                       # strict: the earlier cell keeps a tie
        best = tl.where(bigger, mag, best)
        best_dv = tl.where(bigger, dv, best_dv)
        best_at = tl.where(bigger, offs, best_at)
        rsq += r * r
    top = tl.max(best, axis=0)
    at = tl.min(tl.where(best == top, best_at, n), axis=0)
    dv_top = tl.sum(tl.where((best == top) & (best_at == at), best_dv, 0.0), axis=0)
    tl.store(dv_out, dv_top)
    tl.store(loc_out, at)
    tl.store(rnorm_out, tl.sqrt(tl.sum(rsq, axis=0)))


def run(x_new: torch.Tensor, x_old: torch.Tensor, resid: torch.Tensor, idomain: torch.Tensor) -> tuple:
    n = x_new.numel()
    dvmax = torch.empty(1, device=x_new.device, dtype=x_new.dtype)
    locdv = torch.empty(1, device=x_new.device, dtype=torch.int32)
    rnorm = torch.empty(1, device=x_new.device, dtype=x_new.dtype)
    # the check yields one number per quantity, so one program sweeps the whole model
    _dvmax_rnorm[(1,)](x_new, x_old, resid, idomain, dvmax, locdv, rnorm, n, BLOCK=BLOCK, num_warps=4)
    return dvmax, locdv, rnorm
