"""MODFLOW 6 IMS convergence check: largest head change (signed, with its cell) and residual L2 norm."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
PARTS = 1024


@triton.jit
def _dvmax_rnorm(x_new, x_old, resid, idomain, dv_out, loc_out, rsq_out, top_out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    lanes = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], -1.0, tl.float32)     # running max |dv| per lane (-1: no active cell yet)
    best_dv = tl.zeros([BLOCK], dtype=tl.float32)
    best_at = tl.zeros([BLOCK], dtype=tl.int32)
    rsq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, step):
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
    tl.store(dv_out + pid, dv_top)
    tl.store(loc_out + pid, at)
    tl.store(rsq_out + pid, tl.sum(rsq, axis=0))
    tl.store(top_out + pid, top)


@triton.jit
def _finish(dv_part, loc_part, rsq_part, top_part, dv_out, loc_out, rnorm_out, parts, n,
            PARTS_POW2: tl.constexpr):
    p = tl.arange(0, PARTS_POW2)
    ok = p < parts
    best = tl.load(top_part + p, mask=ok, other=-2.0)
    best_at = tl.load(loc_part + p, mask=ok, other=0)
    best_dv = tl.load(dv_part + p, mask=ok, other=0.0)
    rsq = tl.load(rsq_part + p, mask=ok, other=0.0)
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
    # many programs stride over the model, each leaves one partial; a second launch reduces them
    parts = min(PARTS, triton.cdiv(n, BLOCK))
    dv_part = torch.empty(parts, device=x_new.device, dtype=x_new.dtype)
    loc_part = torch.empty(parts, device=x_new.device, dtype=torch.int32)
    rsq_part = torch.empty(parts, device=x_new.device, dtype=torch.float32)
    top_part = torch.empty(parts, device=x_new.device, dtype=torch.float32)
    _dvmax_rnorm[(parts,)](x_new, x_old, resid, idomain, dv_part, loc_part, rsq_part, top_part, n,
                           BLOCK=BLOCK, num_warps=4)
    _finish[(1,)](dv_part, loc_part, rsq_part, top_part, dvmax, locdv, rnorm, parts, n,
                  PARTS_POW2=triton.next_power_of_2(parts), num_warps=4)
    return dvmax, locdv, rnorm
