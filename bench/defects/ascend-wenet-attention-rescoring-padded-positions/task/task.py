"""WeNet attention rescoring of CTC n-best lists (wenet/transformer/search.py `attention_rescoring`).

After CTC prefix beam search, the N best hypotheses of each of B utterances are fed (sos + hyp, padded to the
longest in the batch) through the attention decoder, giving logits [B, N, L, V] with L = longest hyp + 1.
Position j of a hypothesis of n tokens predicts hyp[j] for j < n and eos at j = n; later positions are padding.
The rescoring score of each hypothesis (unidirectional decoder, reverse_weight = 0) is
    score[b, k] = sum_{j < n} log_softmax(logits[b, k, j])[hyp[b, k, j]]
                + log_softmax(logits[b, k, n])[eos] + ctc_weight * ctc_score[b, k]
Inputs: logits [B, N, L, V] fp32, hyps [B, N, L] int32 (padded with IGNORE_ID = -1), hyp_lens [B, N] int32,
ctc_scores [B, N] fp32, eos (int, = V - 1 as in WeNet), ctc_weight (float). Output scores [B, N] fp32.
"""
import math

import torch

META = {
    "name": "attention_rescoring_scores",
    "level": 2,
    "category": "speech",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "N": 3, "L": 9, "V": 50},
        "ragged": {"B": 3, "N": 4, "L": 11, "V": 77},
        "large": {"B": 64, "N": 10, "L": 48, "V": 5000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over hypotheses; each walks its n + 1 decoder "
                      "positions only (the loop bound is the loaded hyp length), loading the whole vocabulary "
                      "row ([next_power_of_2(V)] tile) for max / exp-sum / log and picking the token's logit "
                      "with one scalar load; the sum plus ctc_weight * ctc score is stored once per "
                      "hypothesis; no autotune.",
    "deterministic": True,
}
IGNORE_ID = -1
CTC_WEIGHT = 0.5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Decoder logits, padded n-best hyps with lengths (log-normal utterance lengths, the longest = L - 1),
    CTC scores, eos and ctc_weight."""
    s = META["sizes"][size]
    B, N, L, V = s["B"], s["N"], s["L"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = torch.exp(math.log(0.27 * (L - 1)) + 0.45 * torch.randn(B, 1, generator=g))
    lens = (base + torch.randint(-2, 3, (B, N), generator=g)).round().clamp(1, L - 1).to(torch.int32)
    lens[0, 0] = L - 1  # the batch is padded to its longest hypothesis
    tokens = torch.randint(1, V - 1, (B, N, L), generator=g, dtype=torch.int32)
    pos = torch.arange(L, dtype=torch.int32)
    hyps = torch.where(pos < lens[..., None], tokens, torch.full_like(tokens, IGNORE_ID))
    logits = torch.randn(B, N, L, V, generator=g) * 3.0
    ctc = -(lens.float() * (0.3 + 0.4 * torch.rand(B, N, generator=g)))
    return (logits.to(dt).to(device), hyps.to(device), lens.to(device), ctc.to(dt).to(device),
            V - 1, CTC_WEIGHT)


def reference(logits: torch.Tensor, hyps: torch.Tensor, hyp_lens: torch.Tensor, ctc_scores: torch.Tensor,
              eos: int, ctc_weight: float) -> torch.Tensor:
    B, N, L, V = logits.shape
    lens = hyp_lens.long()
    pos = torch.arange(L, device=logits.device)
    tok = torch.where(pos < lens[..., None], hyps.long(), torch.full_like(hyps.long(), eos))
    att = torch.zeros(B, N, dtype=torch.float64, device=logits.device)
    for b in range(B):
        logp = torch.log_softmax(logits[b].double(), dim=-1)
        picked = logp.gather(-1, tok[b].clamp(min=0)[..., None]).squeeze(-1)
        att[b] = torch.where(pos <= lens[b][..., None], picked, torch.zeros_like(picked)).sum(-1)
    return (att + ctc_weight * ctc_scores.double()).to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, N, L, V = s["B"], s["N"], s["L"], s["V"]
    return {"bytes": 4 * B * N * L * V + 4 * B * N * (L + 3), "flops": 4 * B * N * L * V}
