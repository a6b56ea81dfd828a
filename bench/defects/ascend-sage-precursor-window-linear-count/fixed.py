"""Sage precursor window: [first, last) of the mass-sorted peptide table inside each spectrum's tolerance."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _precursor_window(pep_mass, prec_mass, first, last, Q, N, lo_factor, hi_factor, top_step,
                      BQ: tl.constexpr, STEPS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for qb in range(pid, tl.cdiv(Q, BQ), nprog):
        q = qb * BQ + tl.arange(0, BQ)
        qmask = q < Q
        m = tl.load(prec_mass + q, mask=qmask, other=0.0)
        lo = m * lo_factor
        hi = m * hi_factor
        # binary lifting: n_* only grows by a step when the table entry just below it is still inside
        # the bound; probes past the end read the last entry, and the result is clamped to N
        n_lo = tl.zeros([BQ], dtype=tl.int32)
        n_hi = tl.zeros([BQ], dtype=tl.int32)
        step = top_step
        for _ in range(STEPS):
            c_lo = n_lo + step
            c_hi = n_hi + step
            v_lo = tl.load(pep_mass + (tl.minimum(c_lo, N) - 1))
            v_hi = tl.load(pep_mass + (tl.minimum(c_hi, N) - 1))
            n_lo = tl.where(v_lo < lo, c_lo, n_lo)
            n_hi = tl.where(v_hi <= hi, c_hi, n_hi)
            step = step // 2
        tl.store(first + q, tl.minimum(n_lo, N), mask=qmask)
        tl.store(last + q, tl.minimum(n_hi, N), mask=qmask)


def run(peptide_mass: torch.Tensor, precursor_mass: torch.Tensor, lo_factor: float,
        hi_factor: float) -> tuple:
    N = peptide_mass.numel()
    Q = precursor_mass.numel()
    first = torch.empty(Q, device=precursor_mass.device, dtype=torch.int32)
    last = torch.empty(Q, device=precursor_mass.device, dtype=torch.int32)
    BQ = 16
    steps = max(1, N.bit_length())
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(Q, BQ))),)
    _precursor_window[grid](peptide_mass, precursor_mass, first, last, Q, N, lo_factor, hi_factor,
                            1 << (steps - 1), BQ=BQ, STEPS=steps)
    return first, last
