"""Sage precursor window: [first, last) of the mass-sorted peptide table inside each spectrum's tolerance."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _precursor_window(pep_mass, prec_mass, first, last, Q, N, lo_factor, hi_factor,
                      BQ: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for qb in range(pid, tl.cdiv(Q, BQ), nprog):
        q = qb * BQ + tl.arange(0, BQ)
        qmask = q < Q
        m = tl.load(prec_mass + q, mask=qmask, other=0.0)
        lo = m * lo_factor
        hi = m * hi_factor
        n_lo = tl.zeros([BQ], dtype=tl.int32)
        n_hi = tl.zeros([BQ], dtype=tl.int32)
        for p0 in range(0, N, BN):
            p = p0 + tl.arange(0, BN)
            pm = tl.load(pep_mass + p, mask=p < N, other=float("inf"))
            n_lo += tl.sum((pm[None, :] < lo[:, None]).to(tl.int32), axis=1)
            n_hi += tl.sum((pm[None, :] <= hi[:, None]).to(tl.int32), axis=1)
        tl.store(first + q, n_lo, mask=qmask)
        tl.store(last + q, n_hi, mask=qmask)


def run(peptide_mass: torch.Tensor, precursor_mass: torch.Tensor, lo_factor: float,
        hi_factor: float) -> tuple:
    N = peptide_mass.numel()
    Q = precursor_mass.numel()
    first = torch.empty(Q, device=precursor_mass.device, dtype=torch.int32)
    last = torch.empty(Q, device=precursor_mass.device, dtype=torch.int32)
    BQ = 16
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(Q, BQ))),)
    _precursor_window[grid](peptide_mass, precursor_mass, first, last, Q, N, lo_factor, hi_factor,
                            BQ=BQ, BN=512)
    return first, last
