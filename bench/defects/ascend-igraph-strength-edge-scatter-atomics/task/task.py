"""Weighted out-degree (vertex strength) of a directed graph: igraph strength(mode="out", weights=...) /
NetworkX G.out_degree(weight="weight").

The graph is given in igraph's indexed edge order, i.e. CSR: the edges are sorted by their source vertex,
indptr[v]..indptr[v+1] are the edges leaving v, src[e] is the source of edge e (the expanded row index of
the CSR) and w[e] its weight. strength[v] = sum of w[e] over the edges leaving v; a vertex without out-edges
has strength 0. Out-degrees follow a heavy tail (a few hubs with tens of thousands of edges).
"""
import torch

META = {
    "name": "vertex_strength_out",
    "level": 1,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "E": 420},
        "ragged": {"N": 77, "E": 531},
        "large": {"N": 4847571, "E": 68993773},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 32 vertices; each block's "
                      "edges are the contiguous range indptr[v0]..indptr[v0+32], read in chunks of 256 "
                      "(src and w), and summed per vertex with a [32, 256] compare-select-reduce on the "
                      "contiguous axis; one store per block, no atomics, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """indptr int32 [N+1], src int32 [E] (sorted), w [E] edge weights."""
    s = META["sizes"][size]
    n, e = s["N"], s["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # heavy-tailed out-degrees (low vertex ids are the hubs): ~ (sqrt((v+1)/n) - sqrt(v/n)) expected edges
    # at vertex v, ~4% sinks without out-edges, scaled to E, stochastically rounded, the rounding
    # remainder given to the largest hub
    v = torch.arange(n + 1, dtype=torch.float64)
    lam = torch.diff(torch.sqrt(v / n))
    sink = torch.rand(n, generator=g) < 0.04
    sink[0] = False
    lam = lam.masked_fill(sink, 0.0)
    lam = lam * (e / lam.sum())
    counts = torch.floor(lam + torch.rand(n, generator=g, dtype=torch.float64)).long()
    counts[0] += e - int(counts.sum())
    src = torch.repeat_interleave(torch.arange(n), counts)
    indptr = torch.zeros(n + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(counts, 0)
    w = torch.rand(e, generator=g) * 2.0 + 0.25
    return (indptr.to(torch.int32).to(device), src.to(torch.int32).to(device), w.to(dt).to(device))


def reference(indptr: torch.Tensor, src: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    n = indptr.shape[0] - 1
    out = torch.zeros(n, dtype=torch.float64, device=w.device)
    out.index_add_(0, src.long(), w.double())
    return out.to(w.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["E"] + 8 * s["N"] + 4, "flops": s["E"]}
