"""P1 tetrahedral local stiffness matrices (element stage of FEM assembly)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _vertex(coord_ptr, node):
    base = node * 3
    return tl.load(coord_ptr + base), tl.load(coord_ptr + base + 1), tl.load(coord_ptr + base + 2)


@triton.jit
def _cross(ax, ay, az, bx, by, bz):
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


@triton.jit
def _dot3(ax, ay, az, bx, by, bz):
    return ax * bx + ay * by + az * bz


@triton.jit
def _store4(ptr, a, b, c, d, mask):
    tl.store(ptr + 0, a, mask=mask)
    tl.store(ptr + 1, b, mask=mask)
    tl.store(ptr + 2, c, mask=mask)
    tl.store(ptr + 3, d, mask=mask)


@triton.jit
def p1_tet_stiffness_kernel(coord_ptr, tet_ptr, kappa_ptr, out_ptr, n_tets, TETS_PER_PROG: tl.constexpr):
    e = tl.program_id(0) * TETS_PER_PROG + tl.arange(0, TETS_PER_PROG)
    live = e < n_tets
    n0 = tl.load(tet_ptr + e * 4 + 0, mask=live, other=0)
    n1 = tl.load(tet_ptr + e * 4 + 1, mask=live, other=0)
    n2 = tl.load(tet_ptr + e * 4 + 2, mask=live, other=0)
    n3 = tl.load(tet_ptr + e * 4 + 3, mask=live, other=0)
    kap = tl.load(kappa_ptr + e, mask=live, other=1.0)

    x0, y0, z0 = _vertex(coord_ptr, n0)
    x1, y1, z1 = _vertex(coord_ptr, n1)
    x2, y2, z2 = _vertex(coord_ptr, n2)
    x3, y3, z3 = _vertex(coord_ptr, n3)
    e1x, e1y, e1z = x1 - x0, y1 - y0, z1 - z0
    e2x, e2y, e2z = x2 - x0, y2 - y0, z2 - z0
    e3x, e3y, e3z = x3 - x0, y3 - y0, z3 - z0

    # cofactor rows: grad(phi_a) = c_a / det
    c1x, c1y, c1z = _cross(e2x, e2y, e2z, e3x, e3y, e3z)
    c2x, c2y, c2z = _cross(e3x, e3y, e3z, e1x, e1y, e1z)
    c3x, c3y, c3z = _cross(e1x, e1y, e1z, e2x, e2y, e2z)
    c0x = -(c1x + c2x + c3x)
    c0y = -(c1y + c2y + c3y)
    c0z = -(c1z + c2z + c3z)
    det = _dot3(e1x, e1y, e1z, c1x, c1y, c1z)
    scale = kap / (6.0 * tl.abs(det))

    k00 = _dot3(c0x, c0y, c0z, c0x, c0y, c0z) * scale
    k01 = _dot3(c0x, c0y, c0z, c1x, c1y, c1z) * scale
    k02 = _dot3(c0x, c0y, c0z, c2x, c2y, c2z) * scale
    k03 = _dot3(c0x, c0y, c0z, c3x, c3y, c3z) * scale
    k11 = _dot3(c1x, c1y, c1z, c1x, c1y, c1z) * scale
    k12 = _dot3(c1x, c1y, c1z, c2x, c2y, c2z) * scale
    k13 = _dot3(c1x, c1y, c1z, c3x, c3y, c3z) * scale
    k22 = _dot3(c2x, c2y, c2z, c2x, c2y, c2z) * scale
    k23 = _dot3(c2x, c2y, c2z, c3x, c3y, c3z) * scale
    k33 = _dot3(c3x, c3y, c3z, c3x, c3y, c3z) * scale

    row = out_ptr + e * 16
    _store4(row + 0, k00, k01, k02, k03, live)
    _store4(row + 4, k01, k11, k12, k13, live)
    _store4(row + 8, k02, k12, k22, k23, live)
    _store4(row + 12, k03, k13, k23, k33, live)


def run(coords: torch.Tensor, tets: torch.Tensor, kappa: torch.Tensor) -> torch.Tensor:
    n_tets = tets.shape[0]
    out = torch.empty((n_tets, 4, 4), device=coords.device, dtype=coords.dtype)
    tets_per_prog = 128
    grid = (triton.cdiv(n_tets, tets_per_prog),)
    p1_tet_stiffness_kernel[grid](coords, tets, kappa, out, n_tets, TETS_PER_PROG=tets_per_prog, num_warps=4)
    return out
