"""dolfinx P2 mass-matrix assembly: FFCx-style element tabulation fused with the MatrixCSR scatter-add."""
import torch
import triton
import triton.language as tl

BLOCK_CELLS = 8   # cells per program
ENTRIES = 128     # 10 x 10 element-matrix entries, padded to a power of two


@triton.jit
def _assemble_p2_mass(x, x_dofmap, dofmap, m_ref, row_ptr, cols, vals, n_cells,
                      NDOFS: tl.constexpr, BLOCK_CELLS: tl.constexpr, ENTRIES: tl.constexpr):
    cell = tl.program_id(0) * BLOCK_CELLS + tl.arange(0, BLOCK_CELLS)
    cell_ok = cell < n_cells

    # geometry: J = [X1 - X0, X2 - X0, X3 - X0], the cell scale is |det J|
    n0 = tl.load(x_dofmap + cell * 4 + 0, mask=cell_ok, other=0)
    n1 = tl.load(x_dofmap + cell * 4 + 1, mask=cell_ok, other=0)
    n2 = tl.load(x_dofmap + cell * 4 + 2, mask=cell_ok, other=0)
    n3 = tl.load(x_dofmap + cell * 4 + 3, mask=cell_ok, other=0)
    x0 = tl.load(x + n0 * 3 + 0, mask=cell_ok, other=0.0)
    y0 = tl.load(x + n0 * 3 + 1, mask=cell_ok, other=0.0)
    z0 = tl.load(x + n0 * 3 + 2, mask=cell_ok, other=0.0)
    a0 = tl.load(x + n1 * 3 + 0, mask=cell_ok, other=0.0) - x0
    a1 = tl.load(x + n1 * 3 + 1, mask=cell_ok, other=0.0) - y0
    a2 = tl.load(x + n1 * 3 + 2, mask=cell_ok, other=0.0) - z0
    b0 = tl.load(x + n2 * 3 + 0, mask=cell_ok, other=0.0) - x0
    b1 = tl.load(x + n2 * 3 + 1, mask=cell_ok, other=0.0) - y0
    b2 = tl.load(x + n2 * 3 + 2, mask=cell_ok, other=0.0) - z0
    c0 = tl.load(x + n3 * 3 + 0, mask=cell_ok, other=0.0) - x0
    c1 = tl.load(x + n3 * 3 + 1, mask=cell_ok, other=0.0) - y0
    c2 = tl.load(x + n3 * 3 + 2, mask=cell_ok, other=0.0) - z0
    det = a0 * (b1 * c2 - b2 * c1) - b0 * (a1 * c2 - a2 * c1) + c0 * (a1 * b2 - a2 * b1)
    scale = tl.abs(det)

    # element matrix entries (i, j) of every cell in the block
    e = tl.arange(0, ENTRIES)
    e_ok = e < NDOFS * NDOFS
    li = e // NDOFS
    lj = e % NDOFS
    m = tl.load(m_ref + e, mask=e_ok, other=0.0)
    ok = cell_ok[:, None] & e_ok[None, :]
    row = tl.load(dofmap + cell[:, None] * NDOFS + li[None, :], mask=ok, other=0)
    col = tl.load(dofmap + cell[:, None] * NDOFS + lj[None, :], mask=ok, other=0)

    # slot of `col` in the sorted column list cols[row_ptr[row]:row_ptr[row + 1]]
    start = tl.load(row_ptr + row, mask=ok, other=0)
    end = tl.load(row_ptr + row + 1, mask=ok, other=0)
    lo = start
    hi = end
    span = tl.max(tl.max(end - start, axis=1), axis=0)
    while span > 0:
        live = lo < hi
        mid = (lo + hi) // 2
        c = tl.load(cols + mid, mask=ok & live, other=0)
        right = c < col
        lo = tl.where(live & right, mid + 1, lo)
        hi = tl.where(live & (c >= col), mid, hi)
        span = span // 2

    tl.atomic_add(vals + lo, scale[:, None] * m[None, :], mask=ok, sem="relaxed")


def run(x, x_dofmap, dofmap, m_ref, row_ptr, cols):
    n_cells, ndofs = dofmap.shape
    vals = torch.zeros(cols.shape[0], device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(n_cells, BLOCK_CELLS),)
    _assemble_p2_mass[grid](x, x_dofmap, dofmap, m_ref, row_ptr, cols, vals, n_cells,
                            NDOFS=ndofs, BLOCK_CELLS=BLOCK_CELLS, ENTRIES=ENTRIES, num_warps=4)
    return vals
