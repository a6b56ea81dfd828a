"""Element load vectors of a Poisson problem on P2 triangles (scikit-fem `asm(LinearForm(f * v), Basis(MeshTri, ElementTriP2()))`).

scikit-fem keeps the vertex coordinates as doflocs = mesh.p[:, mesh.t], shape [2, 3, E] (element index
contiguous), maps the reference triangle affinely (x = x0 + J xi, |det J| constant per element) and integrates
with its default rule for P2, intorder = 4: the 6-point Dunavant rule. The form is the right-hand side of
-lap u = f for the manufactured solution u = x(1-x) y(1-y) on the unit square, f = 2 (x(1-x) + y(1-y)):
    b[i, e] = sum_q w_q |det J_e| f(x_e(xi_q)) phi_i(xi_q),   i = 0..5
with the P2 basis in barycentrics: phi_k = l_k (2 l_k - 1) at the vertices (k = 0, 1, 2), then 4 l0 l1, 4 l1 l2,
4 l0 l2 at the edge midpoints (skfem's facet order (0,1), (1,2), (0,2)). Returns b [6, E]; the scatter into
the global vector by element_dofs follows outside this kernel.
"""
import torch

META = {
    "name": "tri_p2_load_vector",
    "level": 2,
    "category": "finite-elements",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-8, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 4},       # 2 * 4^2 = 32 triangles
        "ragged": {"n": 7},      # 98 triangles
        "large": {"n": 2048},    # 2 * 2048^2 = 8,388,608 triangles
    },
    "baseline_notes": "min(40, blocks) programs (the 910B4's vector cores) loop over blocks of 512 elements: 6 "
                      "contiguous coordinate loads, |det J|, then the 6 quadrature points unrolled (global point, "
                      "source, weight, 6 basis values folded at compile time) accumulating the 6 entries in "
                      "registers, 6 contiguous stores into b [6, E]. One launch, no autotune.",
    "deterministic": True,
}

# 6-point degree-4 rule (Dunavant): barycentrics (a, b, b) and permutations; weights sum to 1.
_RULE = ((0.108103018168070, 0.445948490915965, 0.223381589678011),
         (0.816847572980459, 0.091576213509771, 0.109951743655322))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """doflocs [2, 3, E] of an n x n unit-square mesh, each square cut into 2 triangles, interior nodes jittered."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = 1.0 / n
    ax = torch.arange(n + 1, dtype=torch.float64) * h
    py, px = torch.meshgrid(ax, ax, indexing="ij")
    p = torch.stack([px.reshape(-1), py.reshape(-1)])                       # [2, (n+1)^2]
    interior = ((p > 0) & (p < 1)).all(dim=0)
    p[:, interior] += (torch.rand(2, int(interior.sum()), generator=g, dtype=torch.float64) - 0.5) * 0.3 * h
    c = torch.arange(n)
    cj, ci = torch.meshgrid(c, c, indexing="ij")
    v00 = (ci + (n + 1) * cj).reshape(-1)
    v10, v01, v11 = v00 + 1, v00 + n + 1, v00 + n + 2
    t = torch.cat([torch.stack([v00, v10, v11]), torch.stack([v00, v11, v01])], dim=1)   # [3, E]
    doflocs = p[:, t]                                                        # [2, 3, E]
    return (doflocs.to(dt).contiguous().to(device),)


def reference(doflocs: torch.Tensor) -> torch.Tensor:
    p = doflocs.double()
    x0, x1, x2 = p[0, 0], p[0, 1], p[0, 2]
    y0, y1, y2 = p[1, 0], p[1, 1], p[1, 2]
    adet = ((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)).abs()
    b = torch.zeros(6, p.shape[2], dtype=torch.float64, device=p.device)
    for a, bb, w in _RULE:
        for lam in ((a, bb, bb), (bb, a, bb), (bb, bb, a)):
            l0, l1, l2 = lam
            x = l0 * x0 + l1 * x1 + l2 * x2
            y = l0 * y0 + l1 * y1 + l2 * y2
            f = 2.0 * (x * (1.0 - x) + y * (1.0 - y))
            phi = torch.tensor([l0 * (2 * l0 - 1), l1 * (2 * l1 - 1), l2 * (2 * l2 - 1),
                                4 * l0 * l1, 4 * l1 * l2, 4 * l0 * l2], dtype=torch.float64, device=p.device)
            b += phi[:, None] * (0.5 * w * adet * f)[None, :]
    return b.to(doflocs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    E = 2 * n * n
    return {"bytes": (6 + 6) * 4 * E, "flops": 6 * 20 * E}
