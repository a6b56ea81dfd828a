"""Tip-tip CLV update (libpll pll_core_update_partial_tt), DNA with 4 Gamma categories."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _tt_update(tip_l, tip_r, pmat_l, pmat_r, clv, P, SPAN: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, SPAN)
    # column j of every category's P matrix: entry c*4 + i holds P[c, i, j]
    pl0 = tl.load(pmat_l + cols * 4 + 0)
    pl1 = tl.load(pmat_l + cols * 4 + 1)
    pl2 = tl.load(pmat_l + cols * 4 + 2)
    pl3 = tl.load(pmat_l + cols * 4 + 3)
    pr0 = tl.load(pmat_r + cols * 4 + 0)
    pr1 = tl.load(pmat_r + cols * 4 + 1)
    pr2 = tl.load(pmat_r + cols * 4 + 2)
    pr3 = tl.load(pmat_r + cols * 4 + 3)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        cl = tl.load(tip_l + rows, mask=rmask, other=0).to(tl.int32)
        cr = tl.load(tip_r + rows, mask=rmask, other=0).to(tl.int32)
        wl = ((cl & 1).to(tl.float32)[:, None] * pl0[None, :]
              + ((cl >> 1) & 1).to(tl.float32)[:, None] * pl1[None, :]
              + ((cl >> 2) & 1).to(tl.float32)[:, None] * pl2[None, :]
              + ((cl >> 3) & 1).to(tl.float32)[:, None] * pl3[None, :])
        wr = ((cr & 1).to(tl.float32)[:, None] * pr0[None, :]
              + ((cr >> 1) & 1).to(tl.float32)[:, None] * pr1[None, :]
              + ((cr >> 2) & 1).to(tl.float32)[:, None] * pr2[None, :]
              + ((cr >> 3) & 1).to(tl.float32)[:, None] * pr3[None, :])
        tl.store(clv + rows[:, None] * SPAN + cols[None, :], wl * wr, mask=rmask[:, None])


def run(tip_l, tip_r, pmat_l, pmat_r):
    P = tip_l.shape[0]
    CATS, STATES, _ = pmat_l.shape
    SPAN = CATS * STATES
    BP = 256
    clv = torch.empty((P, CATS, STATES), device=tip_l.device, dtype=torch.float32)
    nprog = min(_VECTOR_CORES, triton.cdiv(P, BP))
    _tt_update[(nprog,)](tip_l, tip_r, pmat_l, pmat_r, clv, P, SPAN=SPAN, BP=BP)
    return clv
