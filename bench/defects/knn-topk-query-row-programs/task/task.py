"""k-selection of a brute-force inner-product search (FAISS IndexFlatIP.search / bfKnn with
METRIC_INNER_PRODUCT): given the [nq, nb] query-database score matrix, the k largest scores of every
query row, sorted descending, with their database ids (int64). Ties go to the lower id."""
import torch

META = {
    "name": "flat_ip_knn_topk",
    "level": 2,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"NQ": 2, "NB": 5000, "D": 32, "K": 10},
        "ragged": {"NQ": 5, "NB": 12345, "D": 48, "K": 37},
        "large": {"NQ": 64, "NB": 1000000, "D": 96, "K": 100},
    },
    "baseline_notes": "Two stages, as FAISS tiles the database and merges per-tile results: a 2-D grid "
                      "(query, 4,096-score chunk) where each program packs score and id into int64 keys and "
                      "keeps its chunk's top next_pow2(k) with tl.topk, then one program per query merges "
                      "the chunk candidates 4,096 at a time and unpacks the k best; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [NQ, NB] = queries @ database^T of L2-normalised D-dim embeddings (Deep1M-like, 96-d at
    "large"), and k."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xb = torch.nn.functional.normalize(torch.randn(s["NB"], s["D"], generator=g), dim=-1)
    xq = torch.nn.functional.normalize(torch.randn(s["NQ"], s["D"], generator=g), dim=-1)
    # a few near-duplicates of each query in the database, as real neighbours are
    near = torch.randint(0, s["NB"], (s["NQ"], 4), generator=g)
    noise = torch.randn(s["NQ"], 4, s["D"], generator=g) * (0.3 / s["D"] ** 0.5)
    xb[near] = torch.nn.functional.normalize(xq[:, None, :] + noise, dim=-1)
    scores = xq @ xb.T
    return scores.to(dt).to(device), s["K"]


def reference(scores: torch.Tensor, k: int) -> tuple:
    vals, ids = torch.sort(scores, dim=1, descending=True, stable=True)
    return vals[:, :k].contiguous(), ids[:, :k].contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["NQ"] * s["NB"] + 12 * s["NQ"] * s["K"], "flops": s["NQ"] * s["NB"]}
