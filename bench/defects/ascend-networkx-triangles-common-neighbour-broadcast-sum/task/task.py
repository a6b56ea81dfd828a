"""Per-vertex triangle counts of an undirected graph on a dense adjacency: NetworkX triangles(G) /
igraph Graph.transitivity_local_undirected's numerator (igraph_count_triangles / adjacent_triangles).

A vertex i lies in one triangle per edge (j, k) among its neighbours:
    t_i = 1/2 * sum_j A[i, j] * |N(i) & N(j)| = 1/2 * sum_j A[i, j] * (A @ A)[i, j]
with A the symmetric 0/1 adjacency (no self-loops) stored dense in fp16 (0 and 1 are exact); the
common-neighbour counts (A @ A)[i, j] are accumulated in fp32 (exact up to 2^24). Returns t as fp32 [N].
Dense graphs of a few thousand vertices (thresholded correlation / co-expression networks at ~10%
density) are where the dense form is used.
"""
import torch

META = {
    "name": "triangles_per_vertex_dense",
    "level": 2,
    "category": "graph",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 48},
        "ragged": {"N": 77},
        "large": {"N": 4096},
    },
    "baseline_notes": "20 programs (the 910B's AI cores, one cube unit each) loop over blocks of 64 rows; per "
                      "block of 128 columns the common-neighbour counts are a K loop of tl.dot on [64, 128] x "
                      "[128, 128] fp16 adjacency tiles with an fp32 accumulator, then masked by the A[i, j] "
                      "tile and row-summed into the block's 64 counts; one store per row block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [N, N]: symmetric 0/1 adjacency, zero diagonal, ~10% dense with some community structure."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    groups = torch.randint(0, 8, (n,), generator=g)
    p = torch.where(groups[:, None] == groups[None, :], 0.35, 0.06)
    keep = torch.rand(n, n, generator=g) < p
    upper = torch.triu(keep, diagonal=1)
    a = (upper | upper.T).to(dt)
    return (a.to(device),)


def reference(a: torch.Tensor) -> torch.Tensor:
    x = a.double()
    return (0.5 * ((x @ x) * x).sum(dim=1)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 2 * n * n + 4 * n, "flops": 2 * n * n * n + 2 * n * n}
