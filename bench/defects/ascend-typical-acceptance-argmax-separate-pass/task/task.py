"""Typical-acceptance verification of speculative drafts (vLLM TypicalAcceptanceSampler, Medusa rule).

Draft token j of request b is accepted when target_probs[b, j, draft] > min(THRESHOLD, ALPHA * exp(-H)),
H = -sum_v p * log(p + EPS) the posterior entropy of that position. The output keeps the drafts up to
the first rejected position, puts the target argmax (the recovered token) there, -1 after it, and
the bonus token in column k when all k drafts are accepted.
"""
import torch

THRESHOLD, ALPHA, EPS = 0.09, 0.3, 1e-5

META = {
    "name": "typical_acceptance_sample",
    "level": 2,
    "category": "speculative-decoding",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 4, "k": 3, "V": 5000},
        "ragged": {"B": 5, "k": 4, "V": 9001},
        "large": {"B": 64, "k": 4, "V": 152064},
    },
    "baseline_notes": "Two launches. 40 programs stride over the B*k (request, position) rows; each streams its "
                      "row once in 4,096-wide tiles, accumulating the entropy sum and the running max / first "
                      "argmax together, then reads the draft's probability and stores accept flag and argmax. "
                      "A second launch builds each request's k + 1 output tokens.",
    "deterministic": True,
}


def _row_stats(probs: torch.Tensor, drafts: torch.Tensor):
    p = probs.double()
    cand = torch.gather(p, -1, drafts.long().unsqueeze(-1)).squeeze(-1)
    entropy = -(p * torch.log(p + EPS)).sum(-1)
    threshold = torch.clamp(ALPHA * torch.exp(-entropy), max=THRESHOLD)
    return cand, threshold


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """target_probs [B, k, V] (softmax of peaked logits), draft_token_ids [B, k] int32, bonus_token_ids [B, 1] int32.

    Drafts are the target's argmax, one of its next few candidates, or a random token; a draft whose
    probability lies within 2% of its threshold is replaced by the argmax so that the verdict is not
    decided by rounding.
    """
    s = META["sizes"][size]
    B, k, V = s["B"], s["k"], s["V"]
    g = torch.Generator().manual_seed(seed)
    scale = 1.0 + 4.0 * torch.rand(B, k, 1, generator=g)
    logits = torch.randn(B, k, V, generator=g) * scale
    probs = torch.softmax(logits, dim=-1).to(getattr(torch, dtype or META["dtypes"][0]))
    ranked = torch.topk(probs, 4, dim=-1).indices
    pick = torch.randint(0, 6, (B, k, 1), generator=g)
    drafts = torch.where(pick < 4, torch.gather(ranked, -1, pick.clamp(max=3)),
                         torch.randint(0, V, (B, k, 1), generator=g)).squeeze(-1)
    cand, threshold = _row_stats(probs, drafts)
    close = (cand - threshold).abs() < 0.02 * threshold
    drafts = torch.where(close, ranked[..., 0], drafts)
    bonus = torch.randint(0, V, (B, 1), generator=g)
    return probs.to(device), drafts.to(torch.int32).to(device), bonus.to(torch.int32).to(device)


def reference(target_probs: torch.Tensor, draft_token_ids: torch.Tensor, bonus_token_ids: torch.Tensor) -> torch.Tensor:
    B, k, _ = target_probs.shape
    cand, threshold = _row_stats(target_probs, draft_token_ids)
    accepted = cand > threshold
    recovered = torch.argmax(target_probs, dim=-1).to(torch.int32)
    rejected = ~accepted
    limits = torch.where(rejected.any(1), rejected.int().argmax(1), torch.full_like(rejected[:, 0], k, dtype=torch.long))
    pos = torch.arange(k, device=target_probs.device)[None, :]
    out = torch.full((B, k + 1), -1, dtype=torch.int32, device=target_probs.device)
    out[:, :k] = torch.where(pos < limits[:, None], draft_token_ids, out[:, :k])
    out[:, :k] = torch.where(pos == limits[:, None], recovered, out[:, :k])
    out[:, k] = torch.where(limits == k, bonus_token_ids[:, 0], out[:, k])
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B"] * s["k"]
    return {"bytes": 4 * rows * s["V"] + 4 * (rows + s["B"] * (s["k"] + 2)), "flops": 6 * rows * s["V"]}
