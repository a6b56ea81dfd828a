"""One LightGCN propagation layer over the user-item graph: e'_i = sum_j A_ij e_j with the symmetric normalisation
A_ij = 1 / sqrt(deg_i * deg_j), as a CSR SpMM (torch.sparse.mm(norm_adj, emb) in the LightGCN reference code)."""
import torch

META = {
    "name": "lightgcn_propagate",
    "level": 2,
    "category": "sparse",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"users": 40, "items": 60, "interactions": 400, "dim": 64},
        "ragged": {"users": 33, "items": 71, "interactions": 517, "dim": 48},
        "large": {"users": 52643, "items": 91599, "interactions": 2984108, "dim": 64},
    },
    "baseline_notes": "one program per node row of the CSR adjacency, walking its neighbours and accumulating "
                      "weighted 64-float embedding rows in registers; 2 warps, so 32 row programs fit on an SM.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rowptr [N+1] int32, col [E] int32, val [E] fp32 (normalised adjacency, both directions of every
    interaction, users then items) and emb [N, dim] fp32, with a popularity-skewed item distribution."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    U, n_items, R = s["users"], s["items"], s["interactions"]
    users = torch.randint(0, U, (R,), generator=g)
    pop = torch.rand(n_items, generator=g).pow(4.0) + 1e-3
    items = torch.multinomial(pop, R, replacement=True, generator=g)
    src = torch.cat([users, U + items])
    dst = torch.cat([U + items, users])
    n = U + n_items
    deg = torch.bincount(src, minlength=n).double()
    order = torch.argsort(src * n + dst)
    src, dst = src[order], dst[order]
    val = (deg[src] * deg[dst]).rsqrt().to(torch.float32)
    rowptr = torch.zeros(n + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(torch.bincount(src, minlength=n), 0)
    emb = (torch.randn(n, s["dim"], generator=g) * 0.1).to(dt)
    return (rowptr.to(torch.int32).to(device), dst.to(torch.int32).to(device), val.to(device), emb.to(device))


def reference(rowptr: torch.Tensor, col: torch.Tensor, val: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    n = rowptr.numel() - 1
    rows = torch.repeat_interleave(torch.arange(n, device=rowptr.device), (rowptr[1:] - rowptr[:-1]).long())
    out = torch.zeros(n, emb.shape[1], dtype=torch.float64, device=emb.device)
    out.index_add_(0, rows, val.double()[:, None] * emb.double()[col.long()])
    return out.to(emb.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, e, d = s["users"] + s["items"], 2 * s["interactions"], s["dim"]
    return {"bytes": 4 * (n + 1) + 8 * e + 4 * e * d + 4 * n * d, "flops": 2 * e * d}
