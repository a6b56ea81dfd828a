"""Squared L2 error of a P2 function per tagged subdomain: the cell integrals of all regions in one pass."""
import torch
import triton
import triton.language as tl

BLOCK_CELLS = 64


@triton.jit
def _subdomain_error(x, x_dofmap, dofmap, u, tags, phi, lam, w, err, n_cells, n_tags, n_quad,
                     NDOFS: tl.constexpr, DOFS_POW2: tl.constexpr,
                     BLOCK_CELLS: tl.constexpr):
    cell = tl.program_id(0) * BLOCK_CELLS + tl.arange(0, BLOCK_CELLS)
    cell_ok = cell < n_cells

    # geometry nodes X0..X3 and |det J|
    n0 = tl.load(x_dofmap + cell * 4 + 0, mask=cell_ok, other=0)
    n1 = tl.load(x_dofmap + cell * 4 + 1, mask=cell_ok, other=0)
    n2 = tl.load(x_dofmap + cell * 4 + 2, mask=cell_ok, other=0)
    n3 = tl.load(x_dofmap + cell * 4 + 3, mask=cell_ok, other=0)
    x0 = tl.load(x + n0 * 3 + 0, mask=cell_ok, other=0.0)
    y0 = tl.load(x + n0 * 3 + 1, mask=cell_ok, other=0.0)
    z0 = tl.load(x + n0 * 3 + 2, mask=cell_ok, other=0.0)
    x1 = tl.load(x + n1 * 3 + 0, mask=cell_ok, other=0.0)
    y1 = tl.load(x + n1 * 3 + 1, mask=cell_ok, other=0.0)
    z1 = tl.load(x + n1 * 3 + 2, mask=cell_ok, other=0.0)
    x2 = tl.load(x + n2 * 3 + 0, mask=cell_ok, other=0.0)
    y2 = tl.load(x + n2 * 3 + 1, mask=cell_ok, other=0.0)
    z2 = tl.load(x + n2 * 3 + 2, mask=cell_ok, other=0.0)
    x3 = tl.load(x + n3 * 3 + 0, mask=cell_ok, other=0.0)
    y3 = tl.load(x + n3 * 3 + 1, mask=cell_ok, other=0.0)
    z3 = tl.load(x + n3 * 3 + 2, mask=cell_ok, other=0.0)
    a0, a1, a2 = x1 - x0, y1 - y0, z1 - z0
    b0, b1, b2 = x2 - x0, y2 - y0, z2 - z0
    c0, c1, c2 = x3 - x0, y3 - y0, z3 - z0
    det = a0 * (b1 * c2 - b2 * c1) - b0 * (a1 * c2 - a2 * c1) + c0 * (a1 * b2 - a2 * b1)

    # the cell's P2 coefficients
    k = tl.arange(0, DOFS_POW2)
    k_ok = k < NDOFS
    ok = cell_ok[:, None] & k_ok[None, :]
    dofs = tl.load(dofmap + cell[:, None] * NDOFS + k[None, :], mask=ok, other=0)
    coeff = tl.load(u + dofs, mask=ok, other=0.0)

    acc = tl.zeros([BLOCK_CELLS], dtype=tl.float32)
    for q in range(0, n_quad):
        basis = tl.load(phi + q * NDOFS + k, mask=k_ok, other=0.0)
        uh = tl.sum(coeff * basis[None, :], axis=1)
        l0 = tl.load(lam + q * 4 + 0)
        l1 = tl.load(lam + q * 4 + 1)
        l2 = tl.load(lam + q * 4 + 2)
        l3 = tl.load(lam + q * 4 + 3)
        px = l0 * x0 + l1 * x1 + l2 * x2 + l3 * x3
        py = l0 * y0 + l1 * y1 + l2 * y2 + l3 * y3
        diff = uh - (1.0 + px * px + 2.0 * py * py)
        acc += tl.load(w + q) * diff * diff
    cell_err = tl.where(cell_ok, acc * tl.abs(det), 0.0)

    tag = tl.load(tags + cell, mask=cell_ok, other=0)
    tl.atomic_add(err + tag, cell_err, mask=cell_ok)


def run(x, x_dofmap, dofmap, u, tags, phi, lam, w, n_tags):
    n_cells, ndofs = dofmap.shape
    err = torch.zeros(n_tags, device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(n_cells, BLOCK_CELLS),)
    _subdomain_error[grid](x, x_dofmap, dofmap, u, tags, phi, lam, w, err, n_cells, n_tags, w.shape[0],
                           NDOFS=ndofs, DOFS_POW2=triton.next_power_of_2(ndofs),
                           BLOCK_CELLS=BLOCK_CELLS, num_warps=4)
    return err
