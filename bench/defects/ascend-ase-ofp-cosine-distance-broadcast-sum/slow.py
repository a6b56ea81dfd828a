"""OFP cosine-distance matrix (ASE OFPComparator._cosine_distance for every pair of candidates)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ofp_weight_norm(fp_ptr, w_ptr, u_ptr, norm_ptr, P, D, BR: tl.constexpr, BD: tl.constexpr):
    """u = fp * sqrt(w) row by row, and |u| per structure."""
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(P, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < P
        sq = tl.zeros([BR], dtype=tl.float32)
        for d0 in range(0, D, BD):
            cols = d0 + tl.arange(0, BD)
            cmask = cols < D
            m = rmask[:, None] & cmask[None, :]
            x = tl.load(fp_ptr + rows[:, None] * D + cols[None, :], mask=m, other=0.0)
            sw = tl.sqrt(tl.load(w_ptr + cols, mask=cmask, other=0.0))
            u = x * sw[None, :]
            tl.store(u_ptr + rows[:, None] * D + cols[None, :], u, mask=m)
            sq += tl.sum(u * u, axis=1)
        tl.store(norm_ptr + rows, tl.sqrt(sq), mask=rmask)


@triton.jit
def _ofp_cosine(u_ptr, norm_ptr, out_ptr, P, D, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_n = tl.cdiv(P, BN)
    for t in range(pid, tl.cdiv(P, BM) * tiles_n, nprog):
        tm = t // tiles_n
        tn = t - tm * tiles_n
        rm = tm * BM + tl.arange(0, BM)
        rn = tn * BN + tl.arange(0, BN)
        mm = rm < P
        mn = rn < P
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k0 in range(0, D, BK):
            kk = k0 + tl.arange(0, BK)
            km = kk < D
            a = tl.load(u_ptr + rm[:, None] * D + kk[None, :], mask=mm[:, None] & km[None, :], other=0.0)
            b = tl.load(u_ptr + rn[:, None] * D + kk[None, :], mask=mn[:, None] & km[None, :], other=0.0)
            acc += tl.sum(a[:, None, :] * b[None, :, :], axis=2)
        na = tl.load(norm_ptr + rm, mask=mm, other=1.0)
        nb = tl.load(norm_ptr + rn, mask=mn, other=1.0)
        dist = 0.5 * (1.0 - acc / (na[:, None] * nb[None, :]))
        tl.store(out_ptr + rm[:, None] * P + rn[None, :], dist, mask=mm[:, None] & mn[None, :])


def run(fp: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    P, D = fp.shape
    u = torch.empty_like(fp)
    norm = torch.empty((P,), device=fp.device, dtype=fp.dtype)
    out = torch.empty((P, P), device=fp.device, dtype=fp.dtype)
    BR, BD = 8, 512
    _ofp_weight_norm[(min(_VECTOR_CORES, triton.cdiv(P, BR)),)](fp, w, u, norm, P, D, BR=BR, BD=BD)
    BM, BN, BK = 32, 32, 16
    tiles = triton.cdiv(P, BM) * triton.cdiv(P, BN)
    _ofp_cosine[(min(_VECTOR_CORES, tiles),)](u, norm, out, P, D, BM=BM, BN=BN, BK=BK)
    return out
