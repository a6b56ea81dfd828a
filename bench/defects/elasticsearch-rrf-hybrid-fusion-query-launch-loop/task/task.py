"""Reciprocal rank fusion of hybrid-search result lists (Elasticsearch / OpenSearch `rrf` retriever, Cormack et al. 2009).

Each query has R ranked lists (BM25, dense kNN, learned sparse) of up to K doc ids (-1 pads a list
that returned fewer hits). The candidates are the R*K slots in list-major order; a slot holding the
first occurrence of its doc id gets the fused score sum_r 1 / (RANK_CONSTANT + rank_r(doc)) over every
list r that contains the doc (rank 1-based), every other slot (repeat or padding) gets 0.
"""
import torch

RANK_CONSTANT = 60.0

META = {
    "name": "rrf_hybrid_fusion",
    "level": 2,
    "category": "ranking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"Q": 3, "R": 3, "K": 20},
        "ragged": {"Q": 5, "R": 2, "K": 37},
        "large": {"Q": 4096, "R": 3, "K": 100},
    },
    "baseline_notes": "One launch over a (query, 64-slot block) grid: each program loads its 64 candidate ids, "
                      "then walks all R*K slots of the query in 128-wide tiles, comparing ids as a [64, 128] "
                      "tile, summing 1/(60 + rank) over matches and counting earlier matches to keep only "
                      "first occurrences; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ids [Q, R, K] int32: each list holds distinct doc ids drawn from a per-query pool of 2K docs, so lists overlap."""
    s = META["sizes"][size]
    Q, R, K = s["Q"], s["R"], s["K"]
    g = torch.Generator().manual_seed(seed)
    pool_size = 2 * K
    base = torch.randint(0, 4_000_000, (Q, 1), generator=g)
    step = torch.randint(1, 2_000, (Q, 1), generator=g)
    pool = base + step * torch.arange(pool_size)[None, :]
    order = torch.rand(Q, R, pool_size, generator=g).argsort(dim=-1)[:, :, :K]
    ids = torch.gather(pool[:, None, :].expand(Q, R, pool_size), 2, order)
    hits = torch.randint(K // 2, K + 1, (Q, R, 1), generator=g)
    hits[0] = K
    ids = torch.where(torch.arange(K)[None, None, :] < hits, ids, torch.full_like(ids, -1))
    return (ids.to(torch.int32).to(device),)


def reference(ids: torch.Tensor) -> torch.Tensor:
    Q, R, K = ids.shape
    C = R * K
    flat = ids.reshape(Q, C).long()
    rank = (torch.arange(C, device=ids.device) % K + 1).double()
    w = 1.0 / (RANK_CONSTANT + rank)
    earlier = torch.arange(C, device=ids.device)[None, :] < torch.arange(C, device=ids.device)[:, None]
    out = torch.empty(Q, C, dtype=torch.float64, device=ids.device)
    for q0 in range(0, Q, 256):
        f = flat[q0:q0 + 256]
        eq = f[:, :, None] == f[:, None, :]
        score = (eq.double() * w[None, None, :]).sum(-1)
        repeat = (eq & earlier[None]).any(-1)
        out[q0:q0 + 256] = torch.where((f >= 0) & ~repeat, score, torch.zeros_like(score))
    return out.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C = s["R"] * s["K"]
    return {"bytes": 8 * s["Q"] * C, "flops": 3 * s["Q"] * C * C}
