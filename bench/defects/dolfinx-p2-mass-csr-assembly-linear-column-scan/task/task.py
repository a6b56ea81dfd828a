"""P2 mass-matrix assembly into a CSR matrix (dolfinx assemble_matrix(form(inner(u, v) * dx)) on P2 tetrahedra).

dolfinx assembles a bilinear form cell by cell: the FFCx kernel tabulates the 10 x 10 element matrix of
the P2 Lagrange space on an affine tetrahedron, M_e[i, j] = |det J_e| * M_ref[i, j] (M_ref = the
reference-cell mass matrix, the constant table FFCx folds into the generated code; J_e = [X1 - X0,
X2 - X0, X3 - X0] from the cell's geometry nodes), and MatrixCSR::add scatters every entry into the
global CSR matrix at row dofmap[c, i], column dofmap[c, j], finding the column's slot inside the row's
sorted column list. Inputs follow dolfinx's data layout: geometry x [n_nodes, 3], geometry dofmap
[n_cells, 4], P2 dofmap [n_cells, 10] (basix order: 4 vertices, then edges (2,3),(1,3),(1,2),(0,3),
(0,2),(0,1)), and the sparsity pattern built from the dofmap (row_ptr [n_dofs + 1], sorted cols [nnz]).
Returns the CSR values [nnz] fp32.
"""
import numpy as np
import torch

META = {
    "name": "p2_mass_csr_assembly",
    "level": 3,
    "category": "finite_elements",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-10, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 2},
        "ragged": {"n": 3},
        "large": {"n": 48},
    },
    "baseline_notes": "One program per 8 cells x the 100 (i, j) entries of their element matrices as an "
                      "[8, 128] tile (100 valid): |det J| from the four geometry nodes, M_ref gathered by "
                      "entry, row / column dofs from the dofmap, each column's slot found by a binary "
                      "search (floor(log2(max row length)) + 1 steps) in the row's sorted columns, then "
                      "one relaxed fp32 atomic add per entry into the CSR values. 4 warps, no autotune.",
    "deterministic": True,
}

# basix P2 tetrahedron: local edge e joins vertices EDGES[e]
EDGES = ((2, 3), (1, 3), (1, 2), (0, 3), (0, 2), (0, 1))
# dolfinx create_unit_cube(..., CellType.tetrahedron): each cube cut into six tets around its main diagonal
KUHN = ((0, 1, 3, 7), (0, 1, 7, 5), (0, 5, 7, 4), (0, 3, 2, 7), (0, 6, 4, 7), (0, 2, 6, 7))


def _p2_reference_mass() -> np.ndarray:
    """M_ref[i, j] = integral over the reference tet of phi_i phi_j (collapsed 4x4x4 Gauss rule, exact here)."""
    t, w = np.polynomial.legendre.leggauss(4)
    t, w = 0.5 * (t + 1.0), 0.5 * w
    u, v, s = np.meshgrid(t, t, t, indexing="ij")
    wu, wv, ws = np.meshgrid(w, w, w, indexing="ij")
    x = u
    y = (1.0 - u) * v
    z = (1.0 - u) * (1.0 - v) * s
    wt = (wu * wv * ws * (1.0 - u) ** 2 * (1.0 - v)).ravel()
    lam = np.stack([1.0 - x - y - z, x, y, z]).reshape(4, -1)
    phi = [lam[a] * (2.0 * lam[a] - 1.0) for a in range(4)] + [4.0 * lam[a] * lam[b] for a, b in EDGES]
    phi = np.stack(phi)
    return (phi * wt) @ phi.T


def _unit_cube_p2(n: int, g: torch.Generator):
    """Geometry, geometry dofmap, P2 dofmap and P2 dof count of a (jittered) Kuhn-cut n^3 unit cube."""
    m1 = n + 1
    i = torch.arange(m1)
    vz, vy, vx = torch.meshgrid(i, i, i, indexing="ij")
    lattice = torch.stack([vx, vy, vz], -1).reshape(-1, 3)
    x = lattice.double() / n
    inner = ((lattice > 0) & (lattice < n)).all(1)
    x[inner] += (torch.rand(int(inner.sum()), 3, generator=g, dtype=torch.float64) - 0.5) * (0.2 / n)
    c = torch.arange(n)
    cz, cy, cx = [a.reshape(-1) for a in torch.meshgrid(c, c, c, indexing="ij")]
    corner = torch.stack([((cz + dz) * m1 + cy + dy) * m1 + cx + dx
                          for dz in (0, 1) for dy in (0, 1) for dx in (0, 1)], 1)
    x_dofmap = corner[:, torch.tensor(KUHN)].reshape(-1, 4)
    # P2 dofs live on the doubled lattice: vertex v at 2 * lattice(v), edge (a, b) at lattice(a) + lattice(b)
    mf = 2 * n + 1
    fine = [2 * lattice[x_dofmap[:, a]] for a in range(4)]
    fine += [lattice[x_dofmap[:, a]] + lattice[x_dofmap[:, b]] for a, b in EDGES]
    fine = torch.stack(fine, 1)
    dofmap = (fine[..., 2] * mf + fine[..., 1]) * mf + fine[..., 0]
    return x, x_dofmap, dofmap, mf ** 3, mf


def _sparsity(dofmap: torch.Tensor, n_dofs: int, mf: int):
    """dolfinx SparsityPattern of the P2 space: row_ptr and sorted cols (every dof pair sharing a cell)."""
    z, rem = dofmap // (mf * mf), dofmap % (mf * mf)
    y, x = rem // mf, rem % mf
    slot = ((z[:, None, :] - z[:, :, None] + 2) * 5 + (y[:, None, :] - y[:, :, None] + 2)) * 5 \
        + (x[:, None, :] - x[:, :, None] + 2)
    occupied = torch.zeros(n_dofs * 125, dtype=torch.bool)
    occupied[(dofmap[:, :, None] * 125 + slot).reshape(-1)] = True
    occupied = occupied.reshape(n_dofs, 125)
    d = torch.arange(-2, 3)
    dz, dy, dx = [a.reshape(-1) for a in torch.meshgrid(d, d, d, indexing="ij")]
    shift = (dz * mf + dy) * mf + dx
    rows, slots = occupied.nonzero(as_tuple=True)
    cols = rows + shift[slots]
    row_ptr = torch.zeros(n_dofs + 1, dtype=torch.int64)
    row_ptr[1:] = torch.cumsum(occupied.sum(1), 0)
    return row_ptr, cols


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [n_nodes, 3], x_dofmap [n_cells, 4] i32, dofmap [n_cells, 10] i32, M_ref [10, 10], row_ptr i32, cols i32."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x, x_dofmap, dofmap, n_dofs, mf = _unit_cube_p2(n, g)
    row_ptr, cols = _sparsity(dofmap, n_dofs, mf)
    m_ref = torch.from_numpy(_p2_reference_mass())
    i32 = dict(device=device, dtype=torch.int32)
    return (x.to(device=device, dtype=dt), x_dofmap.to(**i32), dofmap.to(**i32), m_ref.to(device=device, dtype=dt),
            row_ptr.to(**i32), cols.to(**i32))


def reference(x, x_dofmap, dofmap, m_ref, row_ptr, cols) -> torch.Tensor:
    X = x.double()[x_dofmap.long()]
    J = (X[:, 1:, :] - X[:, :1, :]).transpose(1, 2)
    vol = torch.linalg.det(J).abs()
    m_e = vol[:, None, None] * m_ref.double()[None]
    n_dofs = row_ptr.numel() - 1
    rows = torch.repeat_interleave(torch.arange(n_dofs, device=x.device), (row_ptr[1:] - row_ptr[:-1]).long())
    keys = rows * n_dofs + cols.long()
    d = dofmap.long()
    want = (d[:, :, None] * n_dofs + d[:, None, :]).reshape(-1)
    pos = torch.searchsorted(keys, want)
    vals = torch.zeros(cols.numel(), dtype=torch.float64, device=x.device)
    vals.index_add_(0, pos, m_e.reshape(-1))
    return vals.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    cells, dofs = 6 * n ** 3, (2 * n + 1) ** 3
    return {"bytes": cells * (16 + 40) + 4 * dofs + 8 * 30 * dofs, "flops": 120 * cells}
