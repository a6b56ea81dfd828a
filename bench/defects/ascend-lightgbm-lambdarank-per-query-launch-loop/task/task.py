"""LambdaRank gradients and hessians of LightGBM's `lambdarank` objective (GetGradientsForOneQuery).

Documents are stored query by query (CSR, LightGBM's query_boundaries): query q owns documents
offsets[q] .. offsets[q+1]-1. Per query the documents are ranked by the current scores (stable
descending sort, ties broken by position), and every pair (a, b) with different labels whose better
position is inside the truncation level (min(rank_a, rank_b) < lambdarank_truncation_level) adds,
with high = the document of the larger label, low = the other, delta = s_high - s_low:

    dNDCG   = |gain(l_a) - gain(l_b)| * |disc(rank_a) - disc(rank_b)| * inverse_max_dcg[q]
    p       = 1 / (1 + exp(sigma * delta))
    lambda  = -sigma * p * dNDCG          (added to high, subtracted from low)
    hessian = sigma^2 * p * (1 - p) * dNDCG   (added to both)

with gain(l) = 2^l - 1 (LightGBM's default label_gain) and disc(r) = 1 / log2(2 + r).
inverse_max_dcg is 1 / maxDCG@truncation_level per query (0 when the query has no relevant document),
which LightGBM precomputes once in Init(). lambdarank_norm = false (no score-distance normalisation).
Returns (lambdas [N] fp32, hessians [N] fp32).
"""
import math

import torch

META = {
    "name": "lambdarank_gradients",
    "level": 3,
    "category": "learning-to-rank",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"Q": 6, "mean_len": 14, "max_len": 40},
        "ragged": {"Q": 9, "mean_len": 30, "max_len": 75},
        "large": {"Q": 18919, "mean_len": 120, "max_len": 1251},
    },
    "baseline_notes": "Two launches over all queries: a rank kernel and a lambda kernel, each on 40 programs "
                      "(the 910B's vector cores) that stride over the queries and walk each query in blocks of "
                      "16 documents against 128-document tiles of the same query (pairwise compares for the "
                      "stable descending rank; pair lambdas and hessians summed along the tile's contiguous "
                      "axis); query bounds are read on the device; no autotune.",
    "deterministic": True,
}
SIGMA = 1.0
TRUNCATION_LEVEL = 30
# MSLR-WEB30K relevance grades 0..4 occur roughly in these proportions.
LABEL_PROBS = (0.52, 0.32, 0.13, 0.02, 0.01)


def _max_dcg_at_k(labels: torch.Tensor, k: int) -> float:
    top = torch.sort(labels.double(), descending=True).values[:k]
    disc = 1.0 / torch.log2(torch.arange(top.numel(), dtype=torch.float64) + 2.0)
    return float(((torch.pow(2.0, top) - 1.0) * disc).sum())


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [N], labels [N] (grades 0..4), query offsets [Q+1] int32, inverse_max_dcg [Q], sigma, truncation."""
    s = META["sizes"][size]
    q, mean_len, max_len = s["Q"], s["mean_len"], s["max_len"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sd = 0.75
    lengths = torch.exp(torch.randn(q, generator=g, dtype=torch.float64) * sd + math.log(mean_len) - sd * sd / 2)
    lengths = lengths.round().clamp(1, max_len).long()
    offsets = torch.zeros(q + 1, dtype=torch.long)
    offsets[1:] = torch.cumsum(lengths, 0)
    n = int(offsets[-1])
    labels = torch.multinomial(torch.tensor(LABEL_PROBS), n, replacement=True, generator=g).to(torch.float32)
    scores = torch.randn(n, generator=g) * 1.5 + 0.4 * labels
    inv = torch.zeros(q, dtype=torch.float64)
    for i in range(q):
        m = _max_dcg_at_k(labels[offsets[i]:offsets[i + 1]], TRUNCATION_LEVEL)
        inv[i] = 1.0 / m if m > 0 else 0.0
    return (scores.to(dt).to(device), labels.to(dt).to(device), offsets.to(torch.int32).to(device),
            inv.to(dt).to(device), SIGMA, TRUNCATION_LEVEL)


def reference(scores: torch.Tensor, labels: torch.Tensor, query_offsets: torch.Tensor,
              inverse_max_dcg: torch.Tensor, sigma: float, truncation_level: int) -> tuple:
    n = scores.numel()
    lam = torch.zeros(n, dtype=torch.float64, device=scores.device)
    hes = torch.zeros(n, dtype=torch.float64, device=scores.device)
    bounds = query_offsets.tolist()
    for q in range(len(bounds) - 1):
        a, b = bounds[q], bounds[q + 1]
        if b - a <= 1:
            continue
        s = scores[a:b].double()
        lab = labels[a:b].double()
        order = torch.sort(s, descending=True, stable=True).indices
        rank = torch.empty_like(s)
        rank[order] = torch.arange(b - a, dtype=torch.float64, device=s.device)
        gain = torch.pow(2.0, lab) - 1.0
        disc = 1.0 / torch.log2(rank + 2.0)
        high = lab[:, None] > lab[None, :]
        sign = torch.where(high, 1.0, -1.0)
        delta = sign * (s[:, None] - s[None, :])
        dndcg = (gain[:, None] - gain[None, :]).abs() * (disc[:, None] - disc[None, :]).abs() \
            * float(inverse_max_dcg[q])
        p = 1.0 / (1.0 + torch.exp(sigma * delta))
        pair = (lab[:, None] != lab[None, :]) & (torch.minimum(rank[:, None], rank[None, :]) < truncation_level)
        lam[a:b] = torch.where(pair, -sign * sigma * p * dndcg, 0.0).sum(1)
        hes[a:b] = torch.where(pair, sigma * sigma * p * (1.0 - p) * dndcg, 0.0).sum(1)
    return lam.to(scores.dtype), hes.to(scores.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Q"] * s["mean_len"]
    pairs = s["Q"] * s["mean_len"] ** 2 * 1.75  # E[n^2] of the log-normal list lengths
    return {"bytes": 24 * n, "flops": 30 * pairs}
