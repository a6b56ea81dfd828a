"""Filtered rank of the true tail among all candidate entities (LibKGE EntityRankingJob, rounded_mean_rank).

scores [B, N] are the 1-vs-all scores of B queries (h, r, ?); known [B, N] int8 marks the entities
that complete a known true triple (train/valid/test, the query's own true tail included), which the
filtered protocol removes. With s* = scores[b, true[b]] and the known entities left out,
rank = 1 + #{s > s*} + #{s == s*} // 2 (LibKGE's rounded mean rank tie handling).
"""
import torch

META = {
    "name": "kge_filtered_rank",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 6, "N": 40},
        "ragged": {"B": 7, "N": 77},
        "large": {"B": 4096, "N": 14541},
    },
    "baseline_notes": "40 programs looping over queries; per query a 4096-wide tile loop over the candidates "
                      "(scores masked to -inf out of bounds, filter row cast to fp32, fp32 compares only), "
                      "vector counters reduced once per query.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [B, N] (quantised so that ties occur), true [B] int32, known [B, N] int8."""
    s = META["sizes"][size]
    B, N = s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scores = torch.round(torch.randn(B, N, generator=g) * 8.0) / 8.0
    true = torch.randint(0, N, (B,), generator=g, dtype=torch.int32)
    known = (torch.rand(B, N, generator=g) < 0.05).to(torch.int8)
    known[torch.arange(B), true.long()] = 1
    return scores.to(dt).to(device), true.to(device), known.to(device)


def reference(scores: torch.Tensor, true: torch.Tensor, known: torch.Tensor) -> torch.Tensor:
    s_true = scores.gather(1, true.long()[:, None])
    s = scores.masked_fill(known.bool(), float("-inf"))
    n_gt = (s > s_true).sum(1)
    n_eq = (s == s_true).sum(1)
    return (1 + n_gt + n_eq // 2).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N = s["B"], s["N"]
    return {"bytes": 5 * B * N + 12 * B, "flops": 4 * B * N}
