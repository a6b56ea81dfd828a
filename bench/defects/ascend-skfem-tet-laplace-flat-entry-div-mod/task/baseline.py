"""P1 tetrahedron Laplace element matrices (scikit-fem layout: doflocs [3, 4, E] -> K [4, 4, E])."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 256


@triton.jit
def _pick(k: tl.constexpr, a0, a1, a2, a3):
    if k == 0:
        r = a0
    elif k == 1:
        r = a1
    elif k == 2:
        r = a2
    else:
        r = a3
    return r


@triton.jit
def _tet_laplace(P, K, E, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(E, BLOCK), nprog):
        e = blk * BLOCK + tl.arange(0, BLOCK)
        m = e < E
        # doflocs[d, v, e] lives at (d * 4 + v) * E + e
        x0 = tl.load(P + 0 * E + e, mask=m, other=0.0)
        x1 = tl.load(P + 1 * E + e, mask=m, other=1.0)
        x2 = tl.load(P + 2 * E + e, mask=m, other=0.0)
        x3 = tl.load(P + 3 * E + e, mask=m, other=0.0)
        y0 = tl.load(P + 4 * E + e, mask=m, other=0.0)
        y1 = tl.load(P + 5 * E + e, mask=m, other=0.0)
        y2 = tl.load(P + 6 * E + e, mask=m, other=1.0)
        y3 = tl.load(P + 7 * E + e, mask=m, other=0.0)
        z0 = tl.load(P + 8 * E + e, mask=m, other=0.0)
        z1 = tl.load(P + 9 * E + e, mask=m, other=0.0)
        z2 = tl.load(P + 10 * E + e, mask=m, other=0.0)
        z3 = tl.load(P + 11 * E + e, mask=m, other=1.0)
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
        for i in tl.static_range(4):
            gix = _pick(i, g0x, g1x, g2x, g3x)
            giy = _pick(i, g0y, g1y, g2y, g3y)
            giz = _pick(i, g0z, g1z, g2z, g3z)
            for j in tl.static_range(4):
                gjx = _pick(j, g0x, g1x, g2x, g3x)
                gjy = _pick(j, g0y, g1y, g2y, g3y)
                gjz = _pick(j, g0z, g1z, g2z, g3z)
                kij = vol * (gix * gjx + giy * gjy + giz * gjz)
                tl.store(K + (i * 4 + j) * E + e, kij, mask=m)


def run(doflocs: torch.Tensor) -> torch.Tensor:
    E = doflocs.shape[2]
    K = torch.empty((4, 4, E), device=doflocs.device, dtype=doflocs.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(E, BLOCK)),)
    _tet_laplace[grid](doflocs, K, E, BLOCK=BLOCK)
    return K
