"""Semantic-ID beam expansion of generative retrieval (TIGER-style constrained beam search, one codebook level).

At the decoder step that emits semantic-ID level l, every live beam r (request x beam) is expanded over the
level's codebook of C codes:
    cand[r, c] = beam_score[r] + log_softmax(logits[r, :])[c] + allowed[r, c]
where allowed is the additive prefix-trie mask (0 where code c extends the beam's prefix to an existing item,
-inf elsewhere), the form HF's PrefixConstrainedLogitsProcessor builds. The top-k over each request's
[beams * C] candidates follows outside this kernel.
"""
import torch

META = {
    "name": "semantic_id_beam_expand",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "K": 8, "C": 256},
        "ragged": {"B": 5, "K": 7, "C": 300},
        "large": {"B": 512, "K": 64, "C": 256},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 16 beams x the whole "
                      "codebook row (BC = next_power_of_2(C)): row max, exp-sum and log on the contiguous "
                      "axis, then logit - lse + beam score + trie mask, one store per block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B*K, C], beam_score [B*K] (log-probs of the prefixes), allowed [B*K, C] (0 / -inf)."""
    s = META["sizes"][size]
    R, C = s["B"] * s["K"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(R, C, generator=g) * 3.0
    beam_score = -torch.rand(R, generator=g) * 12.0
    keep = torch.rand(R, C, generator=g) < 0.3
    keep[torch.arange(R), torch.randint(0, C, (R,), generator=g)] = True
    allowed = torch.zeros(R, C).masked_fill(~keep, float("-inf"))
    return logits.to(dt).to(device), beam_score.to(dt).to(device), allowed.to(dt).to(device)


def reference(logits: torch.Tensor, beam_score: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    logp = torch.log_softmax(logits.double(), dim=-1)
    return (logp + allowed.double() + beam_score.double()[:, None]).to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, C = s["B"] * s["K"], s["C"]
    return {"bytes": 12 * R * C + 4 * R, "flops": 6 * R * C}
