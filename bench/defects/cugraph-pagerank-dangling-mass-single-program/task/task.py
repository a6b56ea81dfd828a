"""One PageRank power iteration in the pull direction (cuGraph pagerank, Gunrock PR).

pr'[v] = (1 - alpha) / N + alpha * (sum over in-edges u -> v of pr[u] / out_deg[u] + dangling / N),
dangling = sum of pr[u] over the vertices with out_deg[u] == 0, alpha = 0.85. The graph is given by its
in-edges in CSC form: indptr [N+1] over destinations and the int32 sources of the in-edges, grouped by
destination.
"""
import torch

ALPHA = 0.85

META = {
    "name": "pagerank_pull_iteration",
    "level": 2,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-10, "rtol": 1e-4}},
    "sizes": {
        "small": {"vertices": 2500, "edges": 20000},
        "ragged": {"vertices": 3333, "edges": 40001},
        "large": {"vertices": 4847571, "edges": 68993773},
    },
    "baseline_notes": "Two kernels: the dangling mass by one program per 1024 vertices (tl.sum, one atomic_add "
                      "each into a zeroed scalar); then one program per 32 destinations looping over their in-edges "
                      "in [32, 32] tiles up to the tile's largest in-degree, gathering pr and out_deg of the sources, "
                      "and storing the damped update; 4 warps, no autotune.",
    "deterministic": True,
}


def _power_law_pick(n: int, count: int, alpha: float, offset: float, g: torch.Generator, device: str) -> torch.Tensor:
    """count vertex ids drawn with probability ~ (rank + offset)^-alpha, ranks shuffled over the ids."""
    u = torch.rand(count, generator=g, dtype=torch.float64).to(device)
    ids = torch.randperm(n, generator=g).to(device)
    cdf = torch.cumsum((torch.arange(n, dtype=torch.float64, device=device) + offset) ** (-alpha), 0)
    return ids[torch.searchsorted(cdf, u * cdf[-1]).clamp(max=n - 1)]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pr [N] fp32 (sums to 1), out_deg [N] int32, indptr [N+1] int32 (CSC), src [E] int32 sorted by destination."""
    s = META["sizes"][size]
    N, E = s["vertices"], s["edges"]
    g = torch.Generator().manual_seed(seed)
    # LiveJournal-shaped Chung-Lu graph: heavy-tailed out- and in-degrees, ~8 % of the vertices dangling
    src = _power_law_pick(N, E, 1.0, 300.0 * N / 4847571, g, device)
    dst = _power_law_pick(N, E, 0.95, 400.0 * N / 4847571, g, device)
    pr = torch.rand(N, generator=g, dtype=torch.float64) + 0.05
    pr = (pr / pr.sum()).to(getattr(torch, dtype or META["dtypes"][0]))
    order = torch.argsort(dst, stable=True)
    indptr = torch.zeros(N + 1, dtype=torch.int64, device=device)
    indptr[1:] = torch.cumsum(torch.bincount(dst, minlength=N), 0)
    out_deg = torch.bincount(src, minlength=N)
    return (pr.to(device), out_deg.to(torch.int32), indptr.to(torch.int32), src[order].to(torch.int32))


def reference(pr: torch.Tensor, out_deg: torch.Tensor, indptr: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    N = pr.numel()
    p = pr.double()
    deg = out_deg.long()
    contrib = torch.where(deg > 0, p / deg.clamp(min=1).double(), torch.zeros_like(p))
    dangling = p[deg == 0].sum()
    dst = torch.repeat_interleave(torch.arange(N, device=pr.device), (indptr[1:] - indptr[:-1]).long())
    acc = torch.zeros(N, dtype=torch.float64, device=pr.device).index_add_(0, dst, contrib[src.long()])
    return ((1.0 - ALPHA) / N + ALPHA * (acc + dangling / N)).to(pr.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, E = s["vertices"], s["edges"]
    return {"bytes": 4 * (4 * N + 1) + 4 * E, "flops": 2 * E + 6 * N}
