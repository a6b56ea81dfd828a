"""Per-edge triangle support on the upper-triangular adjacency (GraphChallenge static triangle counting).

The undirected graph is stored as its upper triangle in CSR (rowptr, col, with col > row and each row's
columns sorted ascending) plus the COO row of every edge (src). For every edge (u, v) the output is the
number of common out-neighbours |N+(u) & N+(v)|: each triangle u < v < w is counted once, on its edge
(u, v), and the sum over edges is the graph's triangle count (the k-truss edge support).
"""
import torch

META = {
    "name": "triangle_edge_support",
    "level": 2,
    "category": "graph",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"vertices": 64, "edge_factor": 4},
        "ragged": {"vertices": 100, "edge_factor": 3},
        "large": {"vertices": 262144, "edge_factor": 16},
    },
    "baseline_notes": "One program per edge (1 warp): loads the bounds of N+(u) and N+(v), walks the shorter list in "
                      "32-element chunks and finds each element in the longer list by a vectorised binary search "
                      "(bit-length-of-the-longer-list halving steps), then sums the hits; no autotune.",
    "deterministic": True,
}


def _rmat_upper(vertices: int, edge_factor: int, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Graph500 Kronecker (R-MAT a=0.57, b=c=0.19) edges, ids permuted, made undirected, deduplicated, u < v."""
    scale = max(1, (vertices - 1).bit_length())
    m = edge_factor * (1 << scale)
    src = torch.zeros(m, dtype=torch.int64)
    dst = torch.zeros(m, dtype=torch.int64)
    for bit in range(scale):
        r = torch.rand(m, generator=g)
        src |= (r >= 0.76).long() << bit
        dst |= (((r >= 0.57) & (r < 0.76)) | (r >= 0.95)).long() << bit
    perm = torch.randperm(1 << scale, generator=g) % vertices
    src, dst = perm[src], perm[dst]
    keep = src != dst
    lo, hi = torch.minimum(src[keep], dst[keep]), torch.maximum(src[keep], dst[keep])
    key = torch.unique(lo * vertices + hi)
    return key // vertices, key % vertices


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rowptr [V+1], col [E] (sorted per row, col > row) and src [E] (the row of each edge), all int32."""
    s = META["sizes"][size]
    V = s["vertices"]
    g = torch.Generator().manual_seed(seed)
    u, v = _rmat_upper(V, s["edge_factor"], g)
    rowptr = torch.zeros(V + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(torch.bincount(u, minlength=V), 0)
    i32 = lambda t: t.to(torch.int32).to(device)
    return i32(rowptr), i32(v), i32(u)


def reference(rowptr: torch.Tensor, col: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    ptr, c, u = rowptr.long(), col.long(), src.long()
    V = ptr.numel() - 1
    keys = u * V + c                                  # sorted: CSR rows in order, columns sorted
    deg = ptr[1:] - ptr[:-1]
    du, dv = deg[u], deg[c]
    short_row = torch.where(du <= dv, u, c)
    long_row = torch.where(du <= dv, c, u)
    n_short = torch.minimum(du, dv)
    out = torch.zeros(c.numel(), dtype=torch.int64, device=c.device)
    chunk, e0 = 1 << 24, 0
    while e0 < c.numel():                              # bound the memory of the enumerated pairs
        csum = torch.cumsum(n_short[e0:], 0)
        e1 = e0 + int(torch.searchsorted(csum, torch.tensor(chunk, device=c.device), right=True).item())
        e1 = max(e1, e0 + 1)
        n = n_short[e0:e1]
        edge = torch.repeat_interleave(torch.arange(e0, e1, device=c.device), n)
        first = torch.cumsum(n, 0) - n
        k = torch.arange(edge.numel(), device=c.device) - torch.repeat_interleave(first, n)
        w = c[ptr[short_row[edge]] + k]
        q = long_row[edge] * V + w
        pos = torch.searchsorted(keys, q).clamp(max=keys.numel() - 1)
        out.index_add_(0, edge, (keys[pos] == q).long())
        e0 = e1
    return out.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E = int(0.9 * s["edge_factor"] * s["vertices"])    # R-MAT keeps ~90 % of its edges after dedup
    return {"bytes": 4 * (s["vertices"] + 1) + 16 * E, "flops": 40 * E}
