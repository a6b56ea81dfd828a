"""Tip-tip CLV update (libpll pll_core_update_partial_tt), DNA with 4 Gamma categories."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _tt_lookup(pmat_l, pmat_r, lookup, STATES: tl.constexpr, SPAN: tl.constexpr, NCODE: tl.constexpr):
    # lookup[(l << 4) | r, c*4 + i] = (sum_{j in l} P_l[c,i,j]) * (sum_{j in r} P_r[c,i,j]), as pll_core_create_lookup
    pair = tl.arange(0, NCODE * NCODE)
    cl = pair >> STATES
    cr = pair & (NCODE - 1)
    cols = tl.arange(0, SPAN)
    wl = tl.zeros((NCODE * NCODE, SPAN), dtype=tl.float32)
    wr = tl.zeros((NCODE * NCODE, SPAN), dtype=tl.float32)
    for j in tl.static_range(STATES):
        pl_j = tl.load(pmat_l + cols * STATES + j)
        pr_j = tl.load(pmat_r + cols * STATES + j)
        wl += ((cl >> j) & 1).to(tl.float32)[:, None] * pl_j[None, :]
        wr += ((cr >> j) & 1).to(tl.float32)[:, None] * pr_j[None, :]
    tl.store(lookup + pair[:, None] * SPAN + cols[None, :], wl * wr)


@triton.jit
def _tt_update(tip_l, tip_r, lookup, clv, P, STATES: tl.constexpr, SPAN: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, SPAN)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        cl = tl.load(tip_l + rows, mask=rmask, other=0).to(tl.int32)
        cr = tl.load(tip_r + rows, mask=rmask, other=0).to(tl.int32)
        code = (cl << STATES) | cr
        x = tl.load(lookup + code[:, None] * SPAN + cols[None, :], mask=rmask[:, None], other=0.0)
        tl.store(clv + rows[:, None] * SPAN + cols[None, :], x, mask=rmask[:, None])


def run(tip_l, tip_r, pmat_l, pmat_r):
    P = tip_l.shape[0]
    CATS, STATES, _ = pmat_l.shape
    SPAN = CATS * STATES
    NCODE = 1 << STATES
    BP = 256
    lookup = torch.empty((NCODE * NCODE, SPAN), device=tip_l.device, dtype=torch.float32)
    clv = torch.empty((P, CATS, STATES), device=tip_l.device, dtype=torch.float32)
    _tt_lookup[(1,)](pmat_l, pmat_r, lookup, STATES=STATES, SPAN=SPAN, NCODE=NCODE)
    nprog = min(_VECTOR_CORES, triton.cdiv(P, BP))
    _tt_update[(nprog,)](tip_l, tip_r, lookup, clv, P, STATES=STATES, SPAN=SPAN, BP=BP)
    return clv
