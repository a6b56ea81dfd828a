"""Per-locus log-likelihoods of a concatenated alignment at the root (DNA, 4 Gamma categories)."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_LOG_SCALING_THRESHOLD = -256.0 * math.log(2.0)


@triton.jit
def _locus_lnl(clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w, lnl, P, G, log_thr,
               CATS: tl.constexpr, STATES: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    SPAN: tl.constexpr = CATS * STATES
    # w_c * pi_i for the 16 (category, state) entries of a pattern, once per program
    wv = tl.reshape(tl.load(rate_w + tl.arange(0, CATS))[:, None] * tl.load(pi + tl.arange(0, STATES))[None, :],
                    (SPAN,))
    cols = tl.arange(0, SPAN)
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        x = tl.load(clv + rows[:, None] * SPAN + cols[None, :], mask=rmask[:, None], other=1.0)
        sc = tl.load(scale_num + rows, mask=rmask, other=0).to(tl.float32)
        f = tl.load(ptn_freq + rows, mask=rmask, other=0.0)
        lh = tl.sum(x * wv[None, :], axis=1)
        site = (tl.log(lh) + sc * log_thr) * f
        g = tl.load(gene_of + rows, mask=rmask, other=0)
        tl.atomic_add(lnl + g, site, mask=rmask)


def run(clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w):
    P, CATS, STATES = clv.shape
    G = gene_ptr.shape[0] - 1
    BP = 256
    lnl = torch.zeros((G,), device=clv.device, dtype=torch.float32)
    nprog = min(_VECTOR_CORES, triton.cdiv(P, BP))
    _locus_lnl[(nprog,)](clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w, lnl, P, G,
                         _LOG_SCALING_THRESHOLD, CATS=CATS, STATES=STATES, BP=BP)
    return lnl
