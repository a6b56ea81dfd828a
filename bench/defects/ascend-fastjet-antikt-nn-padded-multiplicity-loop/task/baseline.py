"""Anti-kt NN initialisation (FastJet N^2 strategy) for a batch of events padded to a common width."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _antikt_nn_init(rap, phi, pt, mult, nn, dij, n_events, nmax, R2,
                    BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for ev in range(pid, n_events, nprog):
        n = tl.load(mult + ev)
        row = ev * nmax
        for i0 in range(0, nmax, BI):
            i = i0 + tl.arange(0, BI)
            iok = i < n
            yi = tl.load(rap + row + i, mask=iok, other=0.0)
            fi = tl.load(phi + row + i, mask=iok, other=0.0)
            pti = tl.load(pt + row + i, mask=iok, other=1.0)
            kti = 1.0 / (pti * pti)
            # particle indices as floats (exact below 2^24): the compares below stay on the float path
            fi_idx = i.to(tl.float32)
            best = tl.zeros([BI], dtype=tl.float32) + R2
            best_j = tl.full([BI], -1.0, tl.float32)
            best_kt = kti
            # rows of padding have no partners; live rows only meet the event's n partners
            if i0 < n:
                for j0 in range(0, n, BJ):
                    j = j0 + tl.arange(0, BJ)
                    jok = j < n
                    # padding partners sit at y = +inf: their distance is inf and they are never nearest
                    yj = tl.load(rap + row + j, mask=jok, other=float("inf"))
                    fj = tl.load(phi + row + j, mask=jok, other=0.0)
                    ptj = tl.load(pt + row + j, mask=jok, other=1.0)
                    ktj = 1.0 / (ptj * ptj)
                    fj_idx = j.to(tl.float32)
                    dy = yi[:, None] - yj[None, :]
                    dphi = tl.abs(fi[:, None] - fj[None, :])
                    dphi = tl.where(dphi > 3.141592653589793, 6.283185307179586 - dphi, dphi)
                    d = dy * dy + dphi * dphi
                    d = tl.where(fj_idx[None, :] != fi_idx[:, None], d, float("inf"))
                    dmin = tl.min(d, axis=1)
                    jmin = tl.min(tl.where(d == dmin[:, None], fj_idx[None, :], 3.0e38), axis=1)
                    kmin = tl.sum(tl.where(fj_idx[None, :] == jmin[:, None], ktj[None, :], 0.0), axis=1)
                    closer = dmin < best
                    best = tl.where(closer, dmin, best)
                    best_j = tl.where(closer, jmin, best_j)
                    best_kt = tl.where(closer, kmin, best_kt)
            # padding slots get NN = -1, diJ = 0
            live = fi_idx < n.to(tl.float32)
            inrow = i < nmax
            tl.store(nn + row + i, tl.where(live, best_j, -1.0).to(tl.int32), mask=inrow)
            tl.store(dij + row + i, tl.where(live, best * tl.minimum(kti, best_kt), 0.0), mask=inrow)


def run(rap, phi, pt, mult, R):
    n_events, nmax = rap.shape
    nn = torch.empty((n_events, nmax), device=rap.device, dtype=torch.int32)
    dij = torch.empty((n_events, nmax), device=rap.device, dtype=rap.dtype)
    grid = (min(_VECTOR_CORES, n_events),)
    _antikt_nn_init[grid](rap, phi, pt, mult, nn, dij, n_events, nmax, R * R, BI=32, BJ=64)
    return nn, dij
