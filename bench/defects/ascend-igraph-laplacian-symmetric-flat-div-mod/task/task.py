"""Symmetric normalized Laplacian of a weighted undirected graph, dense: igraph get_laplacian /
Graph.laplacian(weights=..., normalized="symmetric") (which returns a dense matrix) and NetworkX
normalized_laplacian_matrix(G).toarray(), the input of spectral clustering and spectral embeddings.

    d_i    = sum_j A[i, j]                       (weighted degree, a self-loop counted once as in NetworkX)
    h_i    = 1 / sqrt(d_i), 0 for an isolated vertex
    L[i,j] = h_i * (delta_ij * d_i - A[i, j]) * h_j

so L = I - D^-1/2 A D^-1/2 on vertices with edges, and an isolated vertex gets a zero row and column.
"""
import torch

META = {
    "name": "normalized_laplacian_dense",
    "level": 1,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 48},
        "ragged": {"N": 77},
        "large": {"N": 8192},
    },
    "baseline_notes": "Two launches of 40 programs (the 910B's vector cores). The first loops over blocks of 4 "
                      "rows, sums each row in [4, 512] tiles along the contiguous axis and writes d and "
                      "h = rsqrt(d) (0 when d = 0). The second loops over the same row blocks and walks the "
                      "columns in [4, 512] tiles: h of the rows and of the columns are contiguous vector "
                      "loads, diagonal by an fp32 compare of the row and column ids, one contiguous store per tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [N, N]: symmetric weighted adjacency (~6% dense, a few self-loops, a few isolated vertices)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    keep = torch.rand(n, n, generator=g) < 0.06
    wts = torch.rand(n, n, generator=g) * 1.5 + 0.1
    upper = torch.triu(keep, diagonal=1) * wts
    a = upper + upper.T
    loops = torch.rand(n, generator=g) < 0.05
    a += torch.diag(loops * (torch.rand(n, generator=g) + 0.5))
    iso = torch.randperm(n, generator=g)[: max(1, n // 40)]
    a[iso, :] = 0.0
    a[:, iso] = 0.0
    return (a.to(dt).to(device),)


def reference(a: torch.Tensor) -> torch.Tensor:
    x = a.double()
    d = x.sum(dim=1)
    h = torch.where(d > 0, d.clamp(min=1e-300).rsqrt(), torch.zeros_like(d))
    lap = torch.diag(d) - x
    return (h[:, None] * lap * h[None, :]).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n * n + 16 * n, "flops": 5 * n * n}
