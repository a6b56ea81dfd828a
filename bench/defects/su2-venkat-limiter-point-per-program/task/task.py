"""Venkatakrishnan slope limiter of the primitive variables on a vertex-based (median-dual) mesh (SU2 computeLimiters, VENKATAKRISHNAN).

For point i and variable v: dmax = max(u_i, u_j over neighbours j) - u_i, dmin = min(...) - u_i;
for every edge ij, proj = grad_i . (x_j - x_i) / 2 (the reconstruction at the edge midpoint),
delta = dmax if proj > 0 else dmin, y = delta (delta + proj) + eps2,
phi_ij = (y + delta proj) / (y + 2 proj^2); lim[i, v] = min(1, min_j phi_ij).
eps2 = (K * L_ref)^3 (SU2 VENKAT_LIMITER_COEFF and the reference element length).
Adjacency is CSR (SU2 nodes->GetPoint(i, k)): the edges of a Freudenthal tetrahedral mesh of a box
(14 neighbours inside, fewer on the boundary) with jittered coordinates.
"""
import torch

META = {
    "name": "fv_venkat_limiter",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 4, "NY": 4, "NZ": 3, "V": 5},
        "ragged": {"NX": 5, "NY": 3, "NZ": 5, "V": 5},
        "large": {"NX": 160, "NY": 160, "NZ": 160, "V": 5},
    },
    "baseline_notes": "128 points per program: [128, 8] point x variable tiles, loops over the block's largest "
                      "neighbour count with a per-point mask, first for the neighbour min / max, then for the "
                      "edge-midpoint reconstruction and the Venkatakrishnan function; 4 warps, no autotune.",
    "deterministic": True,
}

_OFFSETS = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (0, 1, 1), (1, 0, 1), (1, 1, 1))


def _adjacency(nx: int, ny: int, nz: int):
    k, j, i = torch.meshgrid(torch.arange(nz), torch.arange(ny), torch.arange(nx), indexing="ij")
    i, j, k = i.reshape(-1), j.reshape(-1), k.reshape(-1)
    cols, valid = [], []
    for sgn in (-1, 1):
        for dx, dy, dz in _OFFSETS:
            ii, jj, kk = i + sgn * dx, j + sgn * dy, k + sgn * dz
            ok = (ii >= 0) & (ii < nx) & (jj >= 0) & (jj < ny) & (kk >= 0) & (kk < nz)
            cols.append(ii + nx * (jj + ny * kk)), valid.append(ok)
    cols, valid = torch.stack(cols, 1), torch.stack(valid, 1)
    order = torch.argsort(torch.where(valid, cols, -1), dim=1)        # neighbours in index order
    cols, valid = cols.gather(1, order), valid.gather(1, order)
    ptr = torch.zeros(cols.shape[0] + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(valid.sum(1), 0)
    return ptr, cols[valid]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """prim [N, V], grad [N, V, 3], coord [N, 3] (dtype); adj_ptr [N+1], adj [nnz] int32; eps2 float."""
    s = META["sizes"][size]
    nx, ny, nz, nv = s["NX"], s["NY"], s["NZ"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ptr, adj = _adjacency(nx, ny, nz)
    n = ptr.numel() - 1
    k, j, i = torch.meshgrid(torch.arange(nz), torch.arange(ny), torch.arange(nx), indexing="ij")
    h = 0.01
    coord = h * (torch.stack([i, j, k], -1).reshape(n, 3).float() + 0.2 * (torch.rand(n, 3, generator=g) - 0.5))
    base = torch.tensor([1.2, 80.0, 5.0, 2.0, 1.0e5][:nv])
    prim = base * (1.0 + 0.05 * torch.randn(n, nv, generator=g))
    grad = (base * 0.05 / h)[:, None] * torch.randn(n, nv, 3, generator=g)
    eps2 = float((0.05 * h) ** 3)
    return (prim.to(dt).to(device), grad.to(dt).to(device), coord.to(dt).to(device),
            ptr.to(torch.int32).to(device), adj.to(torch.int32).to(device), eps2)


def reference(prim, grad, coord, adj_ptr, adj, eps2) -> torch.Tensor:
    n, nv = prim.shape
    p, gr, x = prim.double(), grad.double(), coord.double()
    src = torch.repeat_interleave(torch.arange(n, device=prim.device), (adj_ptr[1:] - adj_ptr[:-1]).long())
    dst = adj.long()
    rows = src[:, None].expand(-1, nv)
    umax = p.scatter_reduce(0, rows, p[dst], "amax")
    umin = p.scatter_reduce(0, rows, p[dst], "amin")
    dmax, dmin = umax - p, umin - p
    d = 0.5 * (x[dst] - x[src])
    proj = (gr[src] * d[:, None, :]).sum(-1)
    delta = torch.where(proj > 0, dmax[src], dmin[src])
    y = delta * (delta + proj) + eps2
    phi = (y + delta * proj) / (y + 2.0 * proj * proj)
    lim = torch.ones(n, nv, dtype=torch.float64, device=prim.device).scatter_reduce(0, rows, phi, "amin")
    return lim.to(prim.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["NZ"]
    nnz, nv = 14 * n, s["V"]
    return {"bytes": n * (4 * nv * 5 + 12 + 4) + nnz * (4 + 4 * nv + 12), "flops": nnz * nv * 20}
