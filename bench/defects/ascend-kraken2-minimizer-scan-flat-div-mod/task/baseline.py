"""Kraken 2 minimizer scan (k = 31, l = 15): the canonical l-mer with the smallest toggled value per k-mer."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_KMER = 31
_LMER = 15
_TOGGLE = 0xE37E28C4271B5A2D & ((1 << (2 * _LMER)) - 1)


@triton.jit
def _minimizer_scan(reads, out, R, P, stride_r, stride_o,
                    KMER: tl.constexpr, LMER: tl.constexpr, TOGGLE: tl.constexpr,
                    BR: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    LMASK: tl.constexpr = (1 << (2 * LMER)) - 1
    pos = tl.arange(0, BP)
    for blk in range(pid, tl.cdiv(R, BR), nprog):
        r = blk * BR + tl.arange(0, BR)
        mask = (r < R)[:, None] & (pos < P)[None, :]
        src = reads + r[:, None] * stride_r + pos[None, :]
        fwd = tl.zeros([BR, BP], dtype=tl.int32)
        rc = tl.zeros([BR, BP], dtype=tl.int32)
        amb = tl.zeros([BR, BP], dtype=tl.int32)
        # first l-mer of every k-mer
        for t in tl.static_range(LMER):
            b = tl.load(src + t, mask=mask, other=0).to(tl.int32)
            amb = amb | (b >> 2)
            b = b & 3
            fwd = (fwd << 2) | b
            rc = rc | ((3 - b) << (2 * t))
        best = tl.minimum(fwd, rc) ^ TOGGLE
        # roll the l-mer through the rest of the k-mer: w - 1 = 16 more candidates
        for t in tl.static_range(LMER, KMER):
            b = tl.load(src + t, mask=mask, other=0).to(tl.int32)
            amb = amb | (b >> 2)
            b = b & 3
            fwd = ((fwd << 2) | b) & LMASK
            rc = (rc >> 2) | ((3 - b) << (2 * (LMER - 1)))
            best = tl.minimum(best, tl.minimum(fwd, rc) ^ TOGGLE)
        res = tl.where(amb != 0, -1, best ^ TOGGLE)
        tl.store(out + r[:, None] * stride_o + pos[None, :], res, mask=mask)


def run(reads: torch.Tensor) -> torch.Tensor:
    R, L = reads.shape
    P = L - _KMER + 1
    out = torch.empty((R, P), device=reads.device, dtype=torch.int32)
    BP = triton.next_power_of_2(P)
    BR = max(1, 2048 // BP)
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BR)),)
    _minimizer_scan[grid](reads, out, R, P, reads.stride(0), out.stride(0),
                          KMER=_KMER, LMER=_LMER, TOGGLE=_TOGGLE, BR=BR, BP=BP)
    return out
