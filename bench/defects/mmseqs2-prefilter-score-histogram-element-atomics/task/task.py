"""Top-hit score threshold of an MMseqs2 prefilter (QueryMatcher::computeScoreThreshold over a dense score row).

For every query q the prefilter (here the GPU ungapped prefilter, which scores the query against every
target of the database chunk) leaves one saturated 8-bit score per target, scores[q, t] in 0..255. To keep
only about max_hits targets (MMseqs2's --max-seqs, default 300) without sorting the whole row, MMseqs2 builds
a 256-bin histogram of the row and walks it from the top:

    found = 0
    for s in 255 .. 1:  found += hist[s]; if found >= max_hits: break     (s ends at 0 when never reached)

giving the score threshold thr[q]; every target with score >= thr[q] passes to the next stage, n_hits[q] of
them (ties can make it more than max_hits). Returns (hist int32 [Q, 256], thr int32 [Q], n_hits int32 [Q]).
"""
import torch

META = {
    "name": "prefilter_score_threshold",
    "level": 2,
    "category": "sequence-search",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"Q": 3, "T": 3000, "max_hits": 300},
        "ragged": {"Q": 5, "T": 7777, "max_hits": 300},
        "large": {"Q": 128, "T": 2097152, "max_hits": 300},
    },
    "baseline_notes": "Grid (query, 16 splits); each program walks every 16th tile of 2048 scores of its query row, "
                      "bins each tile with tl.histogram into a 256-bin int32 register histogram, and adds it to the "
                      "query's global histogram with one 256-lane atomic at the end; a one-program-per-query kernel "
                      "takes the suffix sums (cumsum) and picks the threshold. 4 warps, no autotune.",
    "deterministic": True,
}
N_BINS = 256


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores uint8 [Q, T] (Gumbel-like background of unrelated targets plus ~0.05% homologs), max_hits (int)."""
    s = META["sizes"][size]
    q, t = s["Q"], s["T"]
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(q, t, generator=g).clamp_(1e-7, 1.0 - 1e-7)
    background = 28.0 + 3.2 * (-torch.log(-torch.log(u)))   # unrelated targets: Gumbel, lambda ~ 0.31
    homolog = torch.rand(q, t, generator=g) < 5e-4
    strong = 40.0 + 215.0 * torch.rand(q, t, generator=g)
    score = torch.where(homolog, strong, background).round().clamp_(0, 255)
    return score.to(device=device, dtype=getattr(torch, dtype or "uint8")), s["max_hits"]


def reference(scores: torch.Tensor, max_hits: int) -> tuple:
    q = scores.shape[0]
    hist = torch.zeros(q, N_BINS, dtype=torch.int64, device=scores.device)
    hist.scatter_add_(1, scores.long(), torch.ones_like(scores, dtype=torch.int64))
    at_or_above = hist.flip(1).cumsum(1).flip(1)            # targets with score >= s
    s = torch.arange(N_BINS, device=scores.device)
    ok = (s[None, :] >= 1) & (at_or_above >= max_hits)
    thr = torch.where(ok, s[None, :], torch.zeros_like(s)[None, :]).amax(1)
    n_hits = at_or_above.gather(1, thr[:, None])[:, 0]
    return hist.to(torch.int32), thr.to(torch.int32), n_hits.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["Q"] * s["T"] + 4 * s["Q"] * (N_BINS + 2), "flops": s["Q"] * s["T"]}
