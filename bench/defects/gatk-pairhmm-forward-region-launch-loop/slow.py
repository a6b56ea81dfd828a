"""GATK PairHMM forward likelihood region by region, one program per (read, haplotype) pair, DP rows as vectors."""
import torch
import triton
import triton.language as tl

GCP = 10.0
LOG2_10 = tl.constexpr(3.321928094887362)
INIT = tl.constexpr(2.0 ** 120)               # GATK's float path: row-0 deletion mass INIT / H
INIT_LOG10 = tl.constexpr(36.12359947967774)  # log10(INIT)


@triton.jit
def _affine(a1, b1, a2, b2):
    return a1 * a2, a2 * b1 + b2


@triton.jit
def _phred_to_p(q):
    return tl.exp2(q.to(tl.float32) * (-0.1 * LOG2_10))


@triton.jit
def _pairhmm_fwd(bases, quals, read_lens, haps, hap_lens, pair_read, pair_hap, scratch, out, pair0,
                 stride_r, stride_q, stride_k, stride_h, gc, gm, BLOCK_H: tl.constexpr, SCR: tl.constexpr):
    pair = pair0 + tl.program_id(0)
    r = tl.load(pair_read + pair)
    h = tl.load(pair_hap + pair)
    rlen = tl.load(read_lens + r)
    hlen = tl.load(hap_lens + h)
    j = tl.arange(0, BLOCK_H)
    on_hap = j < hlen
    hb = tl.load(haps + h * stride_h + j, mask=on_hap, other=4)
    sm = scratch + pair * (3 * SCR)
    si = sm + SCR
    sd = si + SCR
    # row 0: no match / insertion mass, deletion mass C / H in every column (free start)
    tl.store(sm + j, tl.zeros([BLOCK_H], tl.float32))
    tl.store(si + j, tl.zeros([BLOCK_H], tl.float32))
    tl.store(sd + j, tl.zeros([BLOCK_H], tl.float32) + INIT / hlen.to(tl.float32))
    m_up = tl.zeros([BLOCK_H], tl.float32)
    i_up = tl.zeros([BLOCK_H], tl.float32)
    gcv = tl.zeros([BLOCK_H], tl.float32) + gc
    tl.debug_barrier()
    rq = quals + r * stride_q
    for i in range(rlen):
        rb = tl.load(bases + r * stride_r + i)
        e = _phred_to_p(tl.load(rq + i))
        mi = _phred_to_p(tl.load(rq + stride_k + i))
        md = _phred_to_p(tl.load(rq + 2 * stride_k + i))
        same = (hb == rb) | (hb == 4) | (rb == 4)
        prior = tl.where(on_hap, tl.where(same, 1.0 - e, e / 3.0), 0.0)
        m_dg = tl.load(sm + j)
        i_dg = tl.load(si + j)
        d_dg = tl.load(sd + j)
        m_new = prior * (m_dg * (1.0 - (mi + md)) + (i_dg + d_dg) * gm)
        i_new = m_up * mi + i_up * gc
        _, d_run = tl.associative_scan((gcv, m_new * md), 0, _affine)
        tl.debug_barrier()
        tl.store(sm + j + 1, m_new)
        tl.store(si + j + 1, i_new)
        tl.store(sd + j + 2, d_run)
        tl.store(sd + j, tl.zeros([BLOCK_H], tl.float32), mask=j < 2)
        tl.debug_barrier()
        m_up = m_new
        i_up = i_new
    total = tl.sum(tl.where(on_hap, m_up + i_up, 0.0), axis=0)
    tl.store(out + pair, tl.log2(total) / LOG2_10 - INIT_LOG10)


def run(bases, quals, read_lens, haps, hap_lens, pair_read, pair_hap, region_ptr):
    P = pair_read.shape[0]
    BLOCK_H = triton.next_power_of_2(haps.shape[1])
    SCR = BLOCK_H + 32
    scratch = torch.empty(P, 3, SCR, device=bases.device, dtype=torch.float32)
    out = torch.empty(P, device=bases.device, dtype=torch.float32)
    gc = 10.0 ** (-GCP / 10.0)
    bounds = region_ptr.tolist()
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if hi > lo:
            _pairhmm_fwd[(hi - lo,)](bases, quals, read_lens, haps, hap_lens, pair_read, pair_hap, scratch, out,
                                     lo, bases.stride(0), quals.stride(0), quals.stride(1), haps.stride(0),
                                     gc, 1.0 - gc, BLOCK_H=BLOCK_H, SCR=SCR, num_warps=4)
    return out
