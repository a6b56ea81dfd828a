"""t-SNE attractive forces over the symmetrised kNN affinity graph (cuML TSNE attractive_kernel, tsnecuda).

For every stored edge (i, j, p_ij) of the row-sorted COO graph, with the 2-D embedding kept as
two coordinate arrays Y[0], Y[1]: d = Y[:, i] - Y[:, j], pq = p_ij / (1 + |d|^2), and
attract[:, i] += pq * d. Row offsets (CSR) of the same sorted COO are passed alongside.
"""
import torch

META = {
    "name": "tsne_attractive_forces",
    "level": 2,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 40, "K": 5},
        "ragged": {"N": 77, "K": 7},
        "large": {"N": 1000000, "K": 90},
    },
    "baseline_notes": "One program per 16 rows: each row's edge range from the CSR offsets, walked in 64-edge "
                      "slices up to the block's longest row as a [16, 64] tile (column and value loads, "
                      "embedding gathers, pq), summed along the edges in registers; one store per row. "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y [2, N]; rows, cols [E] int32 (sorted by row); vals [E]; rowptr [N + 1] int32. E = 2 N K."""
    s = META["sizes"][size]
    N, K = s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.randn(2, N, generator=g) * 5.0
    me = torch.arange(N).unsqueeze(1).expand(N, K)
    nbr = torch.randint(0, N - 1, (N, K), generator=g)
    nbr = nbr + (nbr >= me).long()
    w = torch.rand(N, K, generator=g) + 0.05
    p_cond = (w / w.sum(1, keepdim=True)).to(dt)
    # P = (P_cond + P_cond^T) / 2 as a COO of both directions, sorted by row (stable: deterministic order)
    src = torch.cat([me.reshape(-1), nbr.reshape(-1)]).to(device)
    dst = torch.cat([nbr.reshape(-1), me.reshape(-1)]).to(device)
    val = (torch.cat([p_cond.reshape(-1), p_cond.reshape(-1)]) * 0.5).to(device)
    src, order = torch.sort(src, stable=True)
    rowptr = torch.zeros(N + 1, dtype=torch.long, device=device)
    rowptr[1:] = torch.cumsum(torch.bincount(src, minlength=N), 0)
    return (y.to(dt).contiguous().to(device), src.to(torch.int32), dst[order].to(torch.int32).contiguous(),
            val[order].contiguous(), rowptr.to(torch.int32))


def reference(y, rows, cols, vals, rowptr) -> torch.Tensor:
    yd = y.double()
    r, c = rows.long(), cols.long()
    d = yd[:, r] - yd[:, c]
    pq = vals.double() / (1.0 + (d * d).sum(0))
    out = torch.zeros_like(yd)
    out.index_add_(1, r, pq * d)
    return out.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, E = s["N"], 2 * s["N"] * s["K"]
    return {"bytes": 12 * E + 4 * (N + 1) + 16 * N, "flops": 10 * E}
