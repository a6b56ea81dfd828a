"""Squared L2 error per tagged subdomain (dolfinx assemble_scalar(form((uh - u_ex)**2 * dx(k))) for every cell tag k).

As in the FEniCSx tutorial's error computation, uh is a P2 function on tetrahedra and u_ex = 1 + x^2 + 2 y^2
is the manufactured solution; the integral runs over each region of a cell MeshTags (materials from the
mesh generator), so one pass over the cells yields the errors of all regions:
    E[k] = sum_{c : tag[c] = k} |det J_c| sum_q w_q (sum_i phi_i(xi_q) u[dofmap[c, i]] - u_ex(x_c(xi_q)))^2
with x_c(xi) = sum_v lambda_v(xi) X_v the affine map of the cell's geometry nodes. The quadrature is basix's
Gauss-Jacobi scheme for degree 4 on the tetrahedron (3 x 3 x 3 = 27 points, weights sum to 1/6); phi is its
P2 tabulation in basix order (4 vertices, then edges (2,3),(1,3),(1,2),(0,3),(0,2),(0,1)) and lam the
points' barycentric coordinates. Inputs: x [n_nodes, 3], x_dofmap [n_cells, 4] i32, dofmap [n_cells, 10]
i32, u [n_dofs], tags [n_cells] i32, phi [27, 10], lam [27, 4], w [27], n_tags (int). Returns E [n_tags].
"""
import math

import numpy as np
import torch

META = {
    "name": "subdomain_l2_error",
    "level": 3,
    "category": "finite_elements",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 1e-3}},
    "sizes": {
        "small": {"n": 3, "n_tags": 4},
        "ragged": {"n": 5, "n_tags": 3},
        "large": {"n": 64, "n_tags": 4},
    },
    "baseline_notes": "One program per 64 cells: |det J| from the four geometry nodes, the ten P2 "
                      "coefficients gathered as a [64, 16] tile, a loop over the 27 quadrature points "
                      "(uh by a row reduction against the tabulated basis, the physical point from the "
                      "barycentric coordinates, u_ex inline), then the block's cells are summed per tag and "
                      "added with one TAGS-lane fp32 atomic per program. 4 warps, no autotune.",
    "deterministic": True,
}
EDGES = ((2, 3), (1, 3), (1, 2), (0, 3), (0, 2), (0, 1))
KUHN = ((0, 1, 3, 7), (0, 1, 7, 5), (0, 5, 7, 4), (0, 3, 2, 7), (0, 6, 4, 7), (0, 2, 6, 7))


def _gauss_jacobi01(m: int, alpha: int):
    """m-point Gauss rule on [0, 1] for the weight (1 - t)^alpha (Golub-Welsch on the Jacobi recurrence)."""
    if alpha == 0:
        t, w = np.polynomial.legendre.leggauss(m)
        return 0.5 * (t + 1.0), 0.5 * w
    a, b = float(alpha), 0.0
    k = np.arange(m, dtype=np.float64)
    s = 2.0 * k + a + b
    diag = (b * b - a * a) / (s * (s + 2.0))
    kk = k[1:]
    ss = 2.0 * kk + a + b
    off = np.sqrt(4.0 * kk * (kk + a) * (kk + b) * (kk + a + b) / (ss * ss * (ss + 1.0) * (ss - 1.0)))
    nodes, vecs = np.linalg.eigh(np.diag(diag) + np.diag(off, 1) + np.diag(off, -1))
    mu0 = 2.0 ** (a + b + 1.0) * math.gamma(a + 1.0) * math.gamma(b + 1.0) / math.gamma(a + b + 2.0)
    return 0.5 * (nodes + 1.0), mu0 * vecs[0] ** 2 / 2.0 ** (a + b + 1.0)


def _quadrature():
    """Degree-4 Gauss-Jacobi collapsed rule on the reference tet: barycentric points [27, 4], weights [27]."""
    tu, wu = _gauss_jacobi01(3, 2)
    tv, wv = _gauss_jacobi01(3, 1)
    ts, ws = _gauss_jacobi01(3, 0)
    u, v, s = [a.ravel() for a in np.meshgrid(tu, tv, ts, indexing="ij")]
    w = np.einsum("i,j,k->ijk", wu, wv, ws).ravel()
    x, y = u, (1.0 - u) * v
    z = (1.0 - u) * (1.0 - v) * s
    lam = np.stack([1.0 - x - y - z, x, y, z], 1)
    phi = [lam[:, a] * (2.0 * lam[:, a] - 1.0) for a in range(4)] + [4.0 * lam[:, a] * lam[:, b] for a, b in EDGES]
    return lam, np.stack(phi, 1), w


def _u_exact(p: torch.Tensor) -> torch.Tensor:
    return 1.0 + p[..., 0] ** 2 + 2.0 * p[..., 1] ** 2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    n, n_tags = s["n"], s["n_tags"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
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
    # P2 dofs on the doubled lattice (vertex v at 2 lattice(v), edge (a, b) at lattice(a) + lattice(b))
    mf = 2 * n + 1
    fine = [2 * lattice[x_dofmap[:, a]] for a in range(4)]
    fine += [lattice[x_dofmap[:, a]] + lattice[x_dofmap[:, b]] for a, b in EDGES]
    fine = torch.stack(fine, 1)
    dofmap = (fine[..., 2] * mf + fine[..., 1]) * mf + fine[..., 0]
    # uh: the P2 interpolant of u_ex plus a discretisation-error-sized perturbation
    dof_x = torch.zeros(mf ** 3, 3, dtype=torch.float64)
    dof_x[dofmap[:, :4].reshape(-1)] = x[x_dofmap].reshape(-1, 3)
    for e, (a, b) in enumerate(EDGES):
        dof_x[dofmap[:, 4 + e]] = 0.5 * (x[x_dofmap[:, a]] + x[x_dofmap[:, b]])
    u = _u_exact(dof_x) + 1e-2 * torch.randn(mf ** 3, generator=g, dtype=torch.float64)
    # material regions: the cube's four quarter columns (centroid x < 1/2 or not, z < 1/2 or not), up to n_tags
    centroid = x[x_dofmap].mean(1)
    tags = ((centroid[:, 0] > 0.5).long() + 2 * (centroid[:, 2] > 0.5).long()) % n_tags
    lam, phi, w = _quadrature()
    i32 = dict(device=device, dtype=torch.int32)
    fl = dict(device=device, dtype=dt)
    return (x.to(**fl), x_dofmap.to(**i32), dofmap.to(**i32), u.to(**fl), tags.to(**i32),
            torch.from_numpy(phi).to(**fl), torch.from_numpy(lam).to(**fl), torch.from_numpy(w).to(**fl), n_tags)


def reference(x, x_dofmap, dofmap, u, tags, phi, lam, w, n_tags) -> torch.Tensor:
    out = torch.zeros(n_tags, dtype=torch.float64, device=x.device)
    xd, ud, ph, la, wd = x.double(), u.double(), phi.double(), lam.double(), w.double()
    for start in range(0, dofmap.shape[0], 1 << 18):
        sl = slice(start, start + (1 << 18))
        X = xd[x_dofmap[sl].long()]                              # [c, 4, 3]
        J = (X[:, 1:] - X[:, :1]).transpose(1, 2)
        scale = torch.linalg.det(J).abs()
        uh = ud[dofmap[sl].long()] @ ph.T                        # [c, Q]
        pts = torch.einsum("qv,cvk->cqk", la, X)                 # [c, Q, 3]
        err = ((uh - _u_exact(pts)) ** 2 @ wd) * scale
        out.index_add_(0, tags[sl].long(), err)
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    cells = 6 * n ** 3
    return {"bytes": cells * (16 + 40 + 4 + 40 + 48), "flops": cells * 27 * 40}
