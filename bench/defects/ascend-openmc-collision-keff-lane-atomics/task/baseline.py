"""Collision event of a k-eigenvalue generation: k estimators, fission-site counts, analog absorption."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024
K_COLLISION = 0
K_ABSORPTION = 1


@triton.jit
def _collide(wgt, xs, prn, wgt_out, n_sites, tallies, n, inv_keff,
             K_COLLISION: tl.constexpr, K_ABSORPTION: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc_col = tl.zeros([BLOCK], dtype=tl.float32)
    acc_abs = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        w = tl.load(wgt + offs, mask=m, other=0.0)
        st = tl.load(xs + offs, mask=m, other=1.0)
        sa = tl.load(xs + n + offs, mask=m, other=1.0)
        nsf = tl.load(xs + 2 * n + offs, mask=m, other=0.0)
        xi_a = tl.load(prn + offs, mask=m, other=1.0)
        xi_f = tl.load(prn + n + offs, mask=m, other=0.0)

        k_col = w * nsf / st
        sites = tl.floor(k_col * inv_keff + xi_f).to(tl.int32)
        absorbed = xi_a < sa / st
        k_abs = w * nsf / sa

        # per-lane partial sums of the k estimators, added to the global tallies once per program
        acc_col += k_col
        acc_abs += tl.where(absorbed, k_abs, 0.0)

        tl.store(wgt_out + offs, tl.where(absorbed, 0.0, w), mask=m)
        tl.store(n_sites + offs, sites, mask=m)
    tl.atomic_add(tallies + K_COLLISION, tl.sum(acc_col, axis=0))
    tl.atomic_add(tallies + K_ABSORPTION, tl.sum(acc_abs, axis=0))


def run(wgt: torch.Tensor, xs: torch.Tensor, prn: torch.Tensor, keff: float) -> tuple:
    n = wgt.shape[0]
    wgt_out = torch.empty_like(wgt)
    n_sites = torch.empty(n, device=wgt.device, dtype=torch.int32)
    tallies = torch.zeros(2, device=wgt.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _collide[grid](wgt, xs, prn, wgt_out, n_sites, tallies, n, 1.0 / keff,
                   K_COLLISION=K_COLLISION, K_ABSORPTION=K_ABSORPTION, BLOCK=BLOCK)
    return wgt_out, n_sites, tallies
