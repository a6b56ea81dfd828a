"""Conjunctive (AND) two-term query processing over docid-sorted posting lists (PISA / Lucene ConjunctionDISI).

For each query the short posting list is probed against the long one: every short-list entry gets the
position (index into long_docs) of the same doc id in its query's long list, or -1 when the long list
does not contain it. The positions drive the next stage (reading the long term's frequencies for BM25).
Short lists are concatenated in short_docs with short_qid giving each entry's query; long lists are
concatenated in long_docs with CSR offsets long_off [P + 1]. Every list is strictly increasing.
"""
import torch

NUM_DOCS = 8_841_823  # MS MARCO passage collection

META = {
    "name": "and_query_posting_intersection",
    "level": 2,
    "category": "search",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"P": 3, "A": (5, 40), "B": (60, 300)},
        "ragged": {"P": 5, "A": (3, 77), "B": (33, 517)},
        "large": {"P": 128, "A": (1_000, 8_000), "B": (16_000, 256_000)},
    },
    "baseline_notes": "Flat grid over the concatenated short-list entries, 256 per program: each entry reads its "
                      "query's long-list bounds and runs a vectorised lower-bound binary search (bit_length(NB) "
                      "halving steps, finished lanes masked), then checks the landing slot; 4 warps, no autotune.",
    "deterministic": True,
}


def _sorted_distinct(n: int, g: torch.Generator) -> torch.Tensor:
    gaps = torch.randint(1, max(2, 2 * NUM_DOCS // n), (n,), generator=g)
    return torch.cumsum(gaps, 0) + torch.randint(0, 1000, (1,), generator=g)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """short_docs [NA] int32, short_qid [NA] int32, long_docs [NB] int32, long_off [P + 1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    shorts, qids, longs = [], [], []
    for p in range(s["P"]):
        nb = int(torch.randint(s["B"][0], s["B"][1] + 1, (1,), generator=g))
        na = int(torch.randint(s["A"][0], s["A"][1] + 1, (1,), generator=g))
        b = _sorted_distinct(nb, g)
        shared = b[torch.randperm(nb, generator=g)[: na // 3]]
        own = _sorted_distinct(na - na // 3, g)
        a = torch.unique(torch.cat([shared, own]))
        shorts.append(a)
        qids.append(torch.full((a.numel(),), p))
        longs.append(b)
    long_off = torch.zeros(s["P"] + 1, dtype=torch.long)
    long_off[1:] = torch.cumsum(torch.tensor([b.numel() for b in longs]), 0)
    out = (torch.cat(shorts), torch.cat(qids), torch.cat(longs), long_off)
    return tuple(t.to(torch.int32).to(device) for t in out)


def reference(short_docs, short_qid, long_docs, long_off) -> torch.Tensor:
    pos = torch.full_like(short_docs, -1)
    off = long_off.tolist()
    for p in range(len(off) - 1):
        sel = short_qid == p
        a = short_docs[sel]
        b = long_docs[off[p]:off[p + 1]]
        idx = torch.searchsorted(b, a)
        found = idx < b.numel()
        found[found.clone()] = b[idx[found]] == a[found]
        pos[sel] = torch.where(found, idx.to(pos.dtype) + off[p], torch.full_like(a, -1))
    return pos


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    na = s["P"] * sum(s["A"]) // 2
    nb = s["P"] * sum(s["B"]) // 2
    steps = nb.bit_length()
    return {"bytes": 12 * na + 4 * (s["P"] + 1) + 4 * na * steps, "flops": 2 * na * steps}
