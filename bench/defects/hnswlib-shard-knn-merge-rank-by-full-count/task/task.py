"""Merge of two hnswlib shards' knn_query results into the global top-k (a priority-list merge).

A collection too large for one hnswlib index is served as two indices (e.g. a sealed index and the
index that takes fresh inserts); each answers knn_query(k) with its k nearest labels in ascending
distance order. The global answer per query is the k smallest of the 2k (distance, label) pairs:
a merge of two sorted lists cut at k. Ties go to shard A first (stable merge).
Inputs: dist_a, dist_b [Q, k] fp32 ascending per row; label_a, label_b [Q, k] int64 (hnswlib's
size_t labels; shard B's labels follow shard A's). Returns (dist [Q, k] fp32, label [Q, k] int64).
"""
import torch

META = {
    "name": "hnsw_shard_knn_merge",
    "level": 2,
    "category": "vector-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"Q": 3, "K": 50},
        "ragged": {"Q": 5, "K": 37},
        "large": {"Q": 8192, "K": 1000},
    },
    "baseline_notes": "Grid (query, block of 128 list positions). Merge by rank: element i of list A lands at "
                      "i + (number of B entries < it), element j of list B at j + (number of A entries <= it); "
                      "each count is a lower/upper-bound binary search of the other sorted row "
                      "(bit_length(k) steps of one gathered load each), and entries whose rank is < k are "
                      "scattered with their labels. 4 warps, no autotune.",
    "deterministic": True,
}
SHARD_A_ITEMS = 60_000_000  # labels of shard B start here


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-shard top-k lists: squared-L2 distances of a query to its k nearest in each shard (same
    distribution in both shards, so the lists interleave), sorted ascending, with distinct labels."""
    s = META["sizes"][size]
    q, k = s["Q"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    near = 0.6 + 0.4 * torch.rand(q, 1, generator=g)        # distance to the query's nearest neighbour
    dist_a = near * (1.0 + torch.rand(q, k, generator=g).pow(0.7)).sort(dim=1).values
    dist_b = near * (1.0 + torch.rand(q, k, generator=g).pow(0.7)).sort(dim=1).values
    label_a = torch.randint(0, SHARD_A_ITEMS, (q, k), generator=g, dtype=torch.int64)
    label_b = SHARD_A_ITEMS + torch.randint(0, SHARD_A_ITEMS // 4, (q, k), generator=g, dtype=torch.int64)
    return (dist_a.to(device=device, dtype=dt), label_a.to(device),
            dist_b.to(device=device, dtype=dt), label_b.to(device))


def reference(dist_a, label_a, dist_b, label_b) -> tuple:
    k = dist_a.shape[1]
    d = torch.cat([dist_a, dist_b], dim=1)
    lab = torch.cat([label_a, label_b], dim=1)
    order = torch.sort(d, dim=1, stable=True).indices[:, :k]
    return torch.gather(d, 1, order), torch.gather(lab, 1, order)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    q, k = s["Q"], s["K"]
    return {"bytes": 3 * q * k * 12, "flops": 2 * q * k * 4 * k.bit_length()}
