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
    for gi in range(pid, G, nprog):
        start = tl.load(gene_ptr + gi)
        end = tl.load(gene_ptr + gi + 1)
        acc = tl.zeros((BP,), dtype=tl.float32)
        for r0 in range(start, end, BP):
            rows = r0 + tl.arange(0, BP)
            rmask = rows < end
            x = tl.load(clv + rows[:, None] * SPAN + cols[None, :], mask=rmask[:, None], other=1.0)
            sc = tl.load(scale_num + rows, mask=rmask, other=0).to(tl.float32)
            f = tl.load(ptn_freq + rows, mask=rmask, other=0.0)
            lh = tl.sum(x * wv[None, :], axis=1)
            acc += (tl.log(lh) + sc * log_thr) * f
        tl.store(lnl + gi, tl.sum(acc, axis=0))


def run(clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w):
    P, CATS, STATES = clv.shape
    G = gene_ptr.shape[0] - 1
    BP = 256
    lnl = torch.empty((G,), device=clv.device, dtype=torch.float32)
    nprog = min(_VECTOR_CORES, G)
    _locus_lnl[(nprog,)](clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w, lnl, P, G,
                         _LOG_SCALING_THRESHOLD, CATS=CATS, STATES=STATES, BP=BP)
    return lnl
