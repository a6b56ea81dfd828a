"""Gaussian smoothing of a multi-frame overlay over extended sphere neighbourhoods (MRISgaussianSmooth)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _gauss_smooth(src, x, y, z, nbr, out, V, F, K, inv_two_var,
                  BV: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BK)
    cmask = cols < K
    for blk in range(pid, tl.cdiv(V, BV), nprog):
        rows = blk * BV + tl.arange(0, BV)
        rmask = rows < V
        m2 = rmask[:, None] & cmask[None, :]
        nb = tl.load(nbr + rows[:, None] * K + cols[None, :], mask=m2, other=-1)
        valid = m2 & (nb != -1)
        # Gaussian weights of the neighbourhood: the same for every frame, computed once per block
        cx = tl.load(x + rows, mask=rmask, other=0.0)
        cy = tl.load(y + rows, mask=rmask, other=0.0)
        cz = tl.load(z + rows, mask=rmask, other=0.0)
        nx = tl.load(x + nb, mask=valid, other=0.0)
        ny = tl.load(y + nb, mask=valid, other=0.0)
        nz = tl.load(z + nb, mask=valid, other=0.0)
        dx = nx - cx[:, None]
        dy = ny - cy[:, None]
        dz = nz - cz[:, None]
        w = tl.where(valid, tl.exp(-(dx * dx + dy * dy + dz * dz) * inv_two_var), 0.0)
        wsum = tl.sum(w, axis=1)
        for f in range(0, F):
            vals = tl.load(src + f * V + nb, mask=valid, other=0.0)
            num = tl.sum(w * vals, axis=1)
            tl.store(out + f * V + rows, num / wsum, mask=rmask)


def run(src, x, y, z, nbr, gstd):
    F, V = src.shape
    K = nbr.shape[1]
    out = torch.empty((F, V), device=src.device, dtype=src.dtype)
    BV = 64
    BK = triton.next_power_of_2(K)
    grid = (min(_VECTOR_CORES, triton.cdiv(V, BV)),)
    _gauss_smooth[grid](src, x, y, z, nbr, out, V, F, K, 1.0 / (2.0 * gstd * gstd), BV=BV, BK=BK)
    return out
