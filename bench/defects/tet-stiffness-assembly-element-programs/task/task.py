"""P1 (linear) tetrahedral finite-element assembly, element stage: the 4 x 4 local stiffness matrix
K_e[a, b] = kappa_e * vol_e * grad(phi_a) . grad(phi_b) of the Laplacian on every tetrahedron of a
jittered structured mesh (each hexahedron split into 6 Kuhn tetrahedra), ready for the COO scatter."""
import itertools

import torch

META = {
    "name": "p1_tet_local_stiffness",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"NX": 3, "NY": 3, "NZ": 3},
        "ragged": {"NX": 5, "NY": 3, "NZ": 4},
        "large": {"NX": 64, "NY": 64, "NZ": 64},
    },
    "baseline_notes": "1-D grid of 128-tetrahedron blocks: each program gathers its elements' 4 vertex ids and 12 "
                      "coordinates as [128] vectors, forms the edge cofactors (rows of J^-1 * det) and writes the "
                      "16 entries of each local matrix; 4 warps.",
    "deterministic": True,
}


def _mesh(nx: int, ny: int, nz: int, g: torch.Generator) -> tuple:
    """Nodes of an (nx+1) x (ny+1) x (nz+1) lattice on the unit cube (interior nodes jittered by up
    to 0.1 h) and the 6 * nx * ny * nz Kuhn tetrahedra, hexahedron-major."""
    gx, gy, gz = torch.meshgrid(torch.linspace(0, 1, nx + 1, dtype=torch.float64),
                                torch.linspace(0, 1, ny + 1, dtype=torch.float64),
                                torch.linspace(0, 1, nz + 1, dtype=torch.float64), indexing="ij")
    xyz = torch.stack([gx, gy, gz], dim=-1).permute(2, 1, 0, 3).reshape(-1, 3)  # node = i + (nx+1) * (j + (ny+1) * k)
    h = torch.tensor([1.0 / nx, 1.0 / ny, 1.0 / nz], dtype=torch.float64)
    jitter = (torch.rand(xyz.shape, generator=g, dtype=torch.float64) - 0.5) * 0.2 * h
    interior = ((xyz > 1e-9) & (xyz < 1 - 1e-9)).all(dim=1, keepdim=True)
    xyz = xyz + jitter * interior

    i, j, k = torch.meshgrid(torch.arange(nx), torch.arange(ny), torch.arange(nz), indexing="ij")
    i, j, k = (t.permute(2, 1, 0).reshape(-1) for t in (i, j, k))

    def node(di, dj, dk):
        return (i + di) + (nx + 1) * ((j + dj) + (ny + 1) * (k + dk))

    tets = []
    for perm in itertools.permutations(range(3)):
        step = [0, 0, 0]
        path = [node(0, 0, 0)]
        for axis in perm:
            step[axis] = 1
            path.append(node(*step))
        tets.append(torch.stack(path, dim=1))
    tets = torch.stack(tets, dim=1).reshape(-1, 4)
    return xyz, tets


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coords [V, 3] fp32, tets [E, 4] int32 (vertex ids), kappa [E] fp32 (per-element conductivity)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xyz, tets = _mesh(s["NX"], s["NY"], s["NZ"], g)
    kappa = torch.exp(torch.randn(tets.shape[0], generator=g, dtype=torch.float64) * 0.5)
    return xyz.to(dt).to(device), tets.to(torch.int32).to(device), kappa.to(dt).to(device)


def reference(coords: torch.Tensor, tets: torch.Tensor, kappa: torch.Tensor) -> torch.Tensor:
    v = coords.double()[tets.long()]                      # [E, 4, 3]
    jac = (v[:, 1:, :] - v[:, :1, :]).transpose(1, 2)     # columns are the edges from vertex 0
    inv = torch.linalg.inv(jac)                           # rows: gradients of phi_1..phi_3
    grads = torch.cat([-inv.sum(dim=1, keepdim=True), inv], dim=1)  # [E, 4, 3]
    vol = torch.linalg.det(jac).abs() / 6.0
    k = (vol * kappa.double())[:, None, None] * (grads @ grads.transpose(1, 2))
    return k.to(coords.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_tets = 6 * s["NX"] * s["NY"] * s["NZ"]
    n_nodes = (s["NX"] + 1) * (s["NY"] + 1) * (s["NZ"] + 1)
    return {"bytes": n_tets * (16 + 4 + 64) + n_nodes * 12, "flops": 110 * n_tets}
