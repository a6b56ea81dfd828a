"""Annoy tree build: hyperplane margins of every item at one depth of a random-projection tree.

Annoy's _make_tree splits a node's item list with a hyperplane (Angular: the normalised difference
of the two two_means centroids) and sends item i to a side by the sign of
margin = dot(normal, v_i) (Angular::margin / side). Built breadth-first on a GPU, one pass handles a
whole depth: all N items, grouped by the node that holds them (CSR: items[node_start[k]:
node_start[k+1]] are node k's item ids), each scored against its own node's normal.
Inputs: vectors [N, D] fp32 (item order), items [N] int32, node_start [n_nodes + 1] int32,
normals [n_nodes, D] fp32. Returns margin [N] fp32 in the grouped (items) order.
"""
import torch

META = {
    "name": "annoy_split_margins",
    "level": 2,
    "category": "vector-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 600, "D": 100, "n_nodes": 2},
        "ragged": {"N": 333, "D": 37, "n_nodes": 3},
        "large": {"N": 1183514, "D": 100, "n_nodes": 16},
    },
    "baseline_notes": "Grid (node, split): each node's item range is shared by cdiv(N, n_nodes * 256) programs "
                      "that stride over it in 64-item chunks; a chunk loads its item ids, gathers the [64, "
                      "BLOCK_D] rows, multiplies by the node's normal (loaded once per program) and reduces "
                      "along the contiguous axis into 64 margins. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """GloVe-like word vectors, a random grouping of all items into n_nodes nodes of unequal size
    (Annoy's splits are only roughly balanced) and one unit normal per node."""
    s = META["sizes"][size]
    n, d, nodes = s["N"], s["D"], s["n_nodes"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vectors = 0.4 * torch.randn(n, d, generator=g)
    share = 0.6 + 0.8 * torch.rand(nodes, generator=g)
    ends = torch.round(torch.cumsum(share, 0) / share.sum() * n).to(torch.int32)
    node_start = torch.cat([torch.zeros(1, dtype=torch.int32), ends])
    node_start[-1] = n
    items = torch.randperm(n, generator=g).to(torch.int32)
    normals = torch.nn.functional.normalize(torch.randn(nodes, d, generator=g), dim=1)
    return (vectors.to(device=device, dtype=dt), items.to(device), node_start.to(device),
            normals.to(device=device, dtype=dt))


def reference(vectors, items, node_start, normals) -> torch.Tensor:
    counts = (node_start[1:] - node_start[:-1]).long()
    node_of = torch.repeat_interleave(torch.arange(normals.shape[0], device=items.device), counts)
    out = torch.empty(items.shape[0], dtype=vectors.dtype, device=vectors.device)
    for start in range(0, items.shape[0], 1 << 18):
        sl = slice(start, start + (1 << 18))
        v = vectors[items[sl].long()].double()
        out[sl] = (v * normals[node_of[sl]].double()).sum(-1).to(vectors.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d, nodes = s["N"], s["D"], s["n_nodes"]
    return {"bytes": n * (4 * d + 8) + nodes * 4 * (d + 1), "flops": 2 * n * d}
