"""P1 tetrahedron Laplace element matrices (scikit-fem layout: doflocs [3, 4, E] -> K [4, 4, E])."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 256


@triton.jit
def _pick(k, a0, a1, a2, a3):
    return tl.where(k == 0, a0, tl.where(k == 1, a1, tl.where(k == 2, a2, a3)))


@triton.jit
def _tet_laplace(P, K, E, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    # one lane per entry of K [4, 4, E] (thread-per-nonzero assembly): lane idx -> (i, j, e)
    n_entries = 16 * E
    for blk in range(pid, tl.cdiv(n_entries, BLOCK), nprog):
        idx = blk * BLOCK + tl.arange(0, BLOCK)
        m = idx < n_entries
        ij = idx // E
        e = idx % E
        i = ij // 4
        j = ij % 4
        # doflocs[d, v, e] lives at (d * 4 + v) * E + e; e = idx % E is always a valid element
        x0 = tl.load(P + 0 * E + e)
        x1 = tl.load(P + 1 * E + e)
        x2 = tl.load(P + 2 * E + e)
        x3 = tl.load(P + 3 * E + e)
        y0 = tl.load(P + 4 * E + e)
        y1 = tl.load(P + 5 * E + e)
        y2 = tl.load(P + 6 * E + e)
        y3 = tl.load(P + 7 * E + e)
        z0 = tl.load(P + 8 * E + e)
        z1 = tl.load(P + 9 * E + e)
        z2 = tl.load(P + 10 * E + e)
        z3 = tl.load(P + 11 * E + e)
        # columns of J: a = x1 - x0, b = x2 - x0, c = x3 - x0
        ax = x1 - x0
        ay = y1 - y0
        az = z1 - z0
        bx = x2 - x0
        by = y2 - y0
        bz = z2 - z0
        cx = x3 - x0
        cy = y3 - y0
        cz = z3 - z0
        # rows of J^-1 are (b x c, c x a, a x b) / det
        bcx = by * cz - bz * cy
        bcy = bz * cx - bx * cz
        bcz = bx * cy - by * cx
        det = ax * bcx + ay * bcy + az * bcz
        rdet = 1.0 / det
        g1x = bcx * rdet
        g1y = bcy * rdet
        g1z = bcz * rdet
        g2x = (cy * az - cz * ay) * rdet
        g2y = (cz * ax - cx * az) * rdet
        g2z = (cx * ay - cy * ax) * rdet
        g3x = (ay * bz - az * by) * rdet
        g3y = (az * bx - ax * bz) * rdet
        g3z = (ax * by - ay * bx) * rdet
        g0x = -(g1x + g2x + g3x)
        g0y = -(g1y + g2y + g3y)
        g0z = -(g1z + g2z + g3z)
        vol = tl.abs(det) * (1.0 / 6.0)
        gix = _pick(i, g0x, g1x, g2x, g3x)
        giy = _pick(i, g0y, g1y, g2y, g3y)
        giz = _pick(i, g0z, g1z, g2z, g3z)
        gjx = _pick(j, g0x, g1x, g2x, g3x)
        gjy = _pick(j, g0y, g1y, g2y, g3y)
        gjz = _pick(j, g0z, g1z, g2z, g3z)
        kij = vol * (gix * gjx + giy * gjy + giz * gjz)
        tl.store(K + idx, kij, mask=m)


def run(doflocs: torch.Tensor) -> torch.Tensor:
    E = doflocs.shape[2]
    K = torch.empty((4, 4, E), device=doflocs.device, dtype=doflocs.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(16 * E, BLOCK)),)
    _tet_laplace[grid](doflocs, K, E, BLOCK=BLOCK)
    return K
