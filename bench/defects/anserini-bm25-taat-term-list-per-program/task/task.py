"""Term-at-a-time BM25 scoring of a query batch into dense per-query accumulators (Lucene BM25Similarity as used by Anserini).

For query q and each of its terms t (-1 pads short queries), every posting (doc, tf) of t adds
idf(t) * tf / (tf + k1 * (1 - b + b * dl[doc] / avgdl)) to scores[q, doc], with
idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)), df = the posting-list length, N and avgdl from coll_stats.
Posting lists are stored CSR by term: post_docs / post_tf [NNZ], term_off [V + 1].
"""
import math

import torch

K1, B = 0.82, 0.68  # Anserini's MS MARCO passage setting

META = {
    "name": "bm25_taat_scores",
    "level": 2,
    "category": "search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"Q": 3, "T": 4, "V": 10, "D": 500, "df": (5, 200), "long_df": 300},
        "ragged": {"Q": 5, "T": 6, "V": 13, "D": 1237, "df": (3, 700), "long_df": 900},
        "large": {"Q": 8, "T": 8, "V": 48, "D": 8_841_823, "df": (1_000, 1_000_000), "long_df": 2_000_000},
    },
    "baseline_notes": "Grid (query, term slot, 32 splits): each program takes one 32nd of its term's posting list "
                      "(rounded to 1024-posting chunks), computes idf from the list length, and per chunk loads doc "
                      "ids and tfs, gathers doc lengths, and adds the BM25 term score into scores[q, doc] with a "
                      "relaxed atomic add; scores start zeroed; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """post_docs, post_tf [NNZ] int32, term_off [V+1] int32, doc_len [D] int32, query_terms [Q, T] int32, coll_stats [2] fp32."""
    s = META["sizes"][size]
    Q, T, V, D = s["Q"], s["T"], s["V"], s["D"]
    g = torch.Generator().manual_seed(seed)
    lo, hi = s["df"]
    dfs = torch.exp(torch.empty(V).uniform_(math.log(lo), math.log(hi), generator=g)).long()
    dfs[0] = s["long_df"]
    docs, tfs = [], []
    for df in dfs.tolist():
        gaps = torch.randint(1, max(2, 2 * D // df), (df,), generator=g)
        d = torch.cumsum(gaps, 0) - 1
        d = d[d < D]
        docs.append(d)
        tfs.append(1 + (torch.rand(d.numel(), generator=g) ** 4 * 12).long())
    term_off = torch.zeros(V + 1, dtype=torch.long)
    term_off[1:] = torch.cumsum(torch.tensor([d.numel() for d in docs]), 0)
    doc_len = torch.randint(8, 120, (D,), generator=g)
    n_terms = torch.randint(2, T + 1, (Q,), generator=g)
    query_terms = torch.full((Q, T), -1, dtype=torch.long)
    for q in range(Q):
        query_terms[q, : n_terms[q]] = torch.randperm(V, generator=g)[: n_terms[q]]
    # the first query carries the collection's most frequent term
    query_terms[0, : n_terms[0]] = torch.cat([torch.zeros(1, dtype=torch.long),
                                              1 + torch.randperm(V - 1, generator=g)[: n_terms[0] - 1]])
    coll_stats = torch.tensor([float(D), doc_len.double().mean().item()], dtype=torch.float32)
    out = (torch.cat(docs), torch.cat(tfs), term_off, doc_len, query_terms)
    return tuple(t.to(torch.int32).to(device) for t in out) + (coll_stats.to(device),)


def reference(post_docs, post_tf, term_off, doc_len, query_terms, coll_stats) -> torch.Tensor:
    Q, T = query_terms.shape
    n_docs, avgdl = coll_stats.double().tolist()
    scores = torch.zeros(Q, doc_len.numel(), dtype=torch.float64, device=post_docs.device)
    off = term_off.tolist()
    for q in range(Q):
        for t in query_terms[q].tolist():
            if t < 0:
                continue
            d = post_docs[off[t]:off[t + 1]].long()
            tf = post_tf[off[t]:off[t + 1]].double()
            df = off[t + 1] - off[t]
            idf = math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
            norm = K1 * (1.0 - B + B * doc_len[d].double() / avgdl)
            scores[q].index_add_(0, d, idf * tf / (tf + norm))
    return scores.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lo, hi = s["df"]
    mean_df = (hi - lo) / math.log(hi / lo)
    postings = s["Q"] * (s["T"] + 2) / 2 * mean_df + s["long_df"]
    return {"bytes": int(20 * postings + 4 * s["Q"] * s["D"]), "flops": int(8 * postings)}
