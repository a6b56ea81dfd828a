"""Fixed-iteration Jacobi-preconditioned CG on an assembled dolfinx P1 operator (the smoother / inner solve).

The operator is dolfinx's assembled MatrixCSR of a(u, v) = inner(grad(u), grad(v)) * dx + inner(u, v) * dx
on P1 tetrahedra of a (jittered) unit cube, the right-hand side its P1 load vector b for
f = 3 pi^2 sin(pi x) sin(pi y) sin(pi z) + sin(pi x) sin(pi y) sin(pi z), and the preconditioner the matrix
diagonal (PETSc KSPCG + PCJACOBI as a fixed-count smoother, zero initial guess, no convergence test):
    r = b, z = r / d, p = z
    repeat n_iter times:  q = A p;  alpha = (r.z) / (p.q);  x += alpha p;  r -= alpha q;
                          z = r / d;  beta = (r.z)_new / (r.z);  p = z + beta p
Inputs: row_ptr [n + 1] i32, cols [nnz] i32 (sorted per row), vals [nnz], diag [n], b [n], n_iter (int).
Returns x [n].
"""
import math

import torch

META = {
    "name": "jacobi_pcg_smoother",
    "level": 3,
    "category": "sparse_linear_algebra",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"n": 4, "n_iter": 6},
        "ragged": {"n": 7, "n_iter": 5},
        "large": {"n": 80, "n_iter": 10},
    },
    "baseline_notes": "Five launches per iteration: CSR SpMV (blocks of 32 rows, nonzeros in chunks of 16 up "
                      "to the block's longest row), p.q, the x / r / z update, r.z, the p update. Each dot "
                      "runs on min(256, cdiv(n, 1024)) programs that stride over the blocks and write one "
                      "partial each; the kernels that need alpha or beta sum the partials themselves, so "
                      "nothing goes back to the host. BLOCK 1024, 4 warps, no autotune.",
    "deterministic": True,
}
KUHN = ((0, 1, 3, 7), (0, 1, 7, 5), (0, 5, 7, 4), (0, 3, 2, 7), (0, 6, 4, 7), (0, 2, 6, 7))


def _assemble_p1(n: int, g: torch.Generator):
    """CSR of the P1 stiffness + mass matrix and the load vector on a Kuhn-cut n^3 unit cube (fp64)."""
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
    cells = corner[:, torch.tensor(KUHN)].reshape(-1, 4)
    n_dofs = m1 ** 3
    stencil = torch.zeros(n_dofs * 27, dtype=torch.float64)
    b = torch.zeros(n_dofs, dtype=torch.float64)
    for start in range(0, cells.shape[0], 1 << 19):
        cl = cells[start:start + (1 << 19)]
        X = x[cl]
        J = (X[:, 1:] - X[:, :1]).transpose(1, 2)
        vol = torch.linalg.det(J).abs() / 6.0
        G = torch.linalg.inv(J)                              # rows: grad of lambda_1..3
        G = torch.cat([-G.sum(1, keepdim=True), G], 1)       # [c, 4, 3]
        a_e = vol[:, None, None] * (G @ G.transpose(1, 2) + (torch.ones(4, 4) + torch.eye(4)) / 20.0)
        d = lattice[cl]                                      # [c, 4, 3]
        off = d[:, None, :, :] - d[:, :, None, :] + 1        # [c, 4, 4, 3] in {0, 1, 2}
        slot = (off[..., 2] * 3 + off[..., 1]) * 3 + off[..., 0]
        stencil.index_add_(0, (cl[:, :, None] * 27 + slot).reshape(-1), a_e.reshape(-1))
        s = torch.sin(math.pi * X).prod(-1)
        f = (3.0 * math.pi ** 2 + 1.0) * s
        b.index_add_(0, cl.reshape(-1), (vol[:, None] * f / 4.0).reshape(-1))
    stencil = stencil.reshape(n_dofs, 27)
    occupied = stencil != 0.0
    d = torch.arange(-1, 2)
    dz, dy, dx = [a.reshape(-1) for a in torch.meshgrid(d, d, d, indexing="ij")]
    shift = (dz * m1 + dy) * m1 + dx
    rows, slots = occupied.nonzero(as_tuple=True)
    row_ptr = torch.zeros(n_dofs + 1, dtype=torch.int64)
    row_ptr[1:] = torch.cumsum(occupied.sum(1), 0)
    return row_ptr, rows + shift[slots], stencil[rows, slots], stencil[:, 13].clone(), b


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """row_ptr [n+1] i32, cols [nnz] i32, vals [nnz], diag [n], b [n], n_iter."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    row_ptr, cols, vals, diag, b = _assemble_p1(s["n"], g)
    i32 = dict(device=device, dtype=torch.int32)
    fl = dict(device=device, dtype=dt)
    return row_ptr.to(**i32), cols.to(**i32), vals.to(**fl), diag.to(**fl), b.to(**fl), s["n_iter"]


def reference(row_ptr, cols, vals, diag, b, n_iter) -> torch.Tensor:
    n = b.numel()
    rows = torch.repeat_interleave(torch.arange(n, device=b.device), (row_ptr[1:] - row_ptr[:-1]).long())
    c, a, d = cols.long(), vals.double(), diag.double()

    def matvec(v):
        return torch.zeros(n, dtype=torch.float64, device=b.device).index_add_(0, rows, a * v[c])

    x = torch.zeros(n, dtype=torch.float64, device=b.device)
    r = b.double().clone()
    z = r / d
    p = z.clone()
    rz = torch.dot(r, z)
    for _ in range(n_iter):
        q = matvec(p)
        alpha = rz / torch.dot(p, q)
        x += alpha * p
        r -= alpha * q
        z = r / d
        rz_new = torch.dot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x.to(b.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["n"] + 1) ** 3
    nnz = 15 * n
    return {"bytes": s["n_iter"] * (8 * nnz + 4 * 20 * n), "flops": s["n_iter"] * (2 * nnz + 12 * n)}
