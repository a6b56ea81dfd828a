"""Element stiffness matrices of the Laplacian on P1 tetrahedra (scikit-fem `asm(laplace, Basis(MeshTet, ElementTetP1()))`).

scikit-fem keeps the element vertex coordinates as doflocs = mesh.p[:, mesh.t], shape [3, 4, E] (component,
local vertex, element; the element index is the contiguous one), and assembles the local matrices as
data[i, j, e] before handing them to COO with rows = element_dofs[i], cols = element_dofs[j]. For the affine
P1 map x = x0 + J xi with J = [x1 - x0 | x2 - x0 | x3 - x0]:
    grad phi_1..3 = rows of J^-1,  grad phi_0 = -(grad phi_1 + grad phi_2 + grad phi_3)
    K[i, j, e] = |det J_e| / 6 * grad phi_i . grad phi_j
(the one-point quadrature is exact: the integrand is constant per element). Returns K [4, 4, E].
"""
import torch

META = {
    "name": "tet_p1_laplace_local_stiffness",
    "level": 2,
    "category": "finite-elements",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 2},     # 6 * 2^3 = 48 tetrahedra
        "ragged": {"n": 3},    # 162 tetrahedra
        "large": {"n": 64},    # 6 * 64^3 = 1,572,864 tetrahedra
    },
    "baseline_notes": "min(40, blocks) programs (the 910B4's vector cores) loop over blocks of 256 elements; "
                      "each block loads the 12 coordinate vectors contiguously, builds J^-1 by cofactors, and "
                      "stores the 16 entries of the element matrix as 16 contiguous [256] rows of K [4, 4, E]. "
                      "No autotune.",
    "deterministic": True,
}

# Kuhn subdivision of a cube into 6 tetrahedra: walk from corner 0 to corner 7 along the axes in each order.
_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """doflocs [3, 4, E] of a Kuhn-subdivided n^3 cube mesh of the unit cube with jittered interior nodes."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = 1.0 / n
    ax = torch.arange(n + 1, dtype=torch.float64) * h
    pz, py, px = torch.meshgrid(ax, ax, ax, indexing="ij")
    p = torch.stack([px.reshape(-1), py.reshape(-1), pz.reshape(-1)])          # [3, (n+1)^3]
    interior = ((p > 0) & (p < 1)).all(dim=0)
    p[:, interior] += (torch.rand(3, int(interior.sum()), generator=g, dtype=torch.float64) - 0.5) * 0.2 * h
    c = torch.arange(n)
    ck, cj, ci = torch.meshgrid(c, c, c, indexing="ij")
    corner = torch.stack([ci.reshape(-1), cj.reshape(-1), ck.reshape(-1)])     # [3, n^3]
    stride = torch.tensor([1, n + 1, (n + 1) ** 2])
    tets = []
    for perm in _PERMS:
        v = corner.clone()
        verts = [v.clone()]
        for axis in perm:
            v[axis] += 1
            verts.append(v.clone())
        tets.append(torch.stack([(stride[:, None] * w).sum(0) for w in verts]))  # [4, n^3]
    t = torch.cat(tets, dim=1)                                                    # [4, E]
    doflocs = p[:, t]                                                             # [3, 4, E]
    return (doflocs.to(dt).contiguous().to(device),)


def reference(doflocs: torch.Tensor) -> torch.Tensor:
    x = doflocs.double().permute(2, 1, 0)                  # [E, 4 vertices, 3]
    J = (x[:, 1:, :] - x[:, :1, :]).transpose(1, 2)        # [E, 3, 3], columns x_k - x_0
    inv = torch.linalg.inv(J)
    dref = torch.tensor([[-1.0, -1.0, -1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                        dtype=torch.float64, device=x.device)
    grads = dref @ inv                                      # [E, 4, 3]
    vol = torch.linalg.det(J).abs() / 6.0
    K = vol[:, None, None] * (grads @ grads.transpose(1, 2))
    return K.permute(1, 2, 0).contiguous().to(doflocs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    E = 6 * n ** 3
    return {"bytes": (12 + 16) * 4 * E, "flops": 120 * E}
