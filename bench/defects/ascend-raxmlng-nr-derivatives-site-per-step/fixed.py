"""Newton-Raphson branch-length derivatives from the RAxML-NG sumtable (DNA, 4 Gamma categories)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _nr_derivatives(sumtable, weights, eigvals, rates, rate_w, partial, t, P,
                    CATS: tl.constexpr, STATES: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    SPAN: tl.constexpr = CATS * STATES
    # diagonal tables, once per program: d0 = w_c exp(lambda_k r_c t), d1 = lambda_k r_c d0, d2 = (lambda_k r_c)^2 d0
    lam = tl.load(eigvals + tl.arange(0, STATES))
    rc = tl.load(rates + tl.arange(0, CATS))
    wc = tl.load(rate_w + tl.arange(0, CATS))
    lr = rc[:, None] * lam[None, :]
    e0 = wc[:, None] * tl.exp(lr * t)
    d0 = tl.reshape(e0, (SPAN,))
    d1 = tl.reshape(lr * e0, (SPAN,))
    d2 = tl.reshape(lr * lr * e0, (SPAN,))
    cols = tl.arange(0, SPAN)
    acc1 = tl.zeros((BP,), dtype=tl.float32)
    acc2 = tl.zeros((BP,), dtype=tl.float32)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        x = tl.load(sumtable + rows[:, None] * SPAN + cols[None, :], mask=rmask[:, None], other=1.0)
        f = tl.load(weights + rows, mask=rmask, other=0).to(tl.float32)
        s0 = tl.sum(x * d0[None, :], axis=1)
        s1 = tl.sum(x * d1[None, :], axis=1)
        s2 = tl.sum(x * d2[None, :], axis=1)
        r1 = s1 / s0
        acc1 += f * r1
        acc2 += f * (s2 / s0 - r1 * r1)
    tl.store(partial + pid, tl.sum(acc1, axis=0))
    tl.store(partial + nprog + pid, tl.sum(acc2, axis=0))


@triton.jit
def _sum_partials(partial, out, n, BN: tl.constexpr):
    i = tl.arange(0, BN)
    m = i < n
    tl.store(out, tl.sum(tl.load(partial + i, mask=m, other=0.0), axis=0))
    tl.store(out + 1, tl.sum(tl.load(partial + n + i, mask=m, other=0.0), axis=0))


def run(sumtable, weights, eigvals, rates, rate_w, t):
    P, CATS, STATES = sumtable.shape
    BP = 256
    nprog = min(_VECTOR_CORES, triton.cdiv(P, BP))
    partial = torch.empty((2, nprog), device=sumtable.device, dtype=torch.float32)
    out = torch.empty((2,), device=sumtable.device, dtype=torch.float32)
    _nr_derivatives[(nprog,)](sumtable, weights, eigvals, rates, rate_w, partial, t, P,
                              CATS=CATS, STATES=STATES, BP=BP)
    _sum_partials[(1,)](partial, out, nprog, BN=triton.next_power_of_2(nprog))
    return out
