"""Comet E-value histogram: per-spectrum histogram of the XCorr scores of every candidate peptide.

Comet (CometSearch / CometPostAnalysis) keeps, for each query spectrum, a histogram of the XCorr of
every peptide it scored (targets, decoys and the generated filler decoys), bins of width 0.1:
    bin = min((int)(xcorr * 10 + 0.5), HISTO_SIZE - 1),   HISTO_SIZE = 152
and fits a line to the log of its survival function to turn the best XCorr into an E-value. Here
the scores of all candidates are laid out spectrum after spectrum (CSR: offsets[s] .. offsets[s+1]),
already clamped at 0 as Comet does. Returns hist [S, 152] int32.
"""
import torch

HISTO_SIZE = 152

META = {
    "name": "xcorr_evalue_histogram",
    "level": 2,
    "category": "histogram",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"S": 4, "min_cand": 20, "max_cand": 120},
        "ragged": {"S": 7, "min_cand": 0, "max_cand": 301},
        "large": {"S": 8192, "min_cand": 2048, "max_cand": 6144},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over spectra; each walks its spectrum's "
                      "scores in blocks of 64, bins them and counts them against the 152 bins (padded to 256) "
                      "with a [256, 64] equality tile summed along the contiguous axis, keeping the counts in "
                      "registers; one store of the spectrum's histogram row, no atomics; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [T] (XCorr >= 0, grouped by spectrum), offsets [S+1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["min_cand"], s["max_cand"] + 1, (s["S"],), generator=g)
    offsets = torch.zeros(s["S"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(counts, 0)
    total = int(offsets[-1])
    # bulk of random matches: gamma-like around 0.5-1.0, a few high-scoring hits, some zeros (clamped)
    u = torch.rand(total, 2, generator=g)
    scores = -0.35 * torch.log(u[:, 0] * u[:, 1] + 1e-12)
    hits = torch.rand(total, generator=g) < 0.002
    scores = torch.where(hits, 2.0 + 6.0 * torch.rand(total, generator=g), scores)
    scores = torch.where(torch.rand(total, generator=g) < 0.03, torch.zeros(total), scores)
    scores = scores.clamp(0.0, 20.0)
    return scores.to(dt).to(device), offsets.to(torch.int32).to(device)


def reference(scores: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    S = offsets.numel() - 1
    counts = (offsets[1:] - offsets[:-1]).long()
    sid = torch.repeat_interleave(torch.arange(S, device=scores.device), counts)
    b = (scores.float() * 10.0 + 0.5).to(torch.int32).clamp(max=HISTO_SIZE - 1).long()
    hist = torch.bincount(sid * HISTO_SIZE + b, minlength=S * HISTO_SIZE)
    return hist.view(S, HISTO_SIZE).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T = s["S"] * (s["min_cand"] + s["max_cand"]) // 2
    return {"bytes": 4 * T + 4 * (s["S"] + 1) + 4 * s["S"] * HISTO_SIZE, "flops": 3 * T}
