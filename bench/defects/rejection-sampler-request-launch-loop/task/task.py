"""Speculative-decoding rejection sampling (random path): accept draft tokens while p_target / p_draft >= u, then a recovered token."""
import torch

META = {
    "name": "rejection_sample",
    "level": 2,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "K": 3, "V": 100},
        "ragged": {"B": 17, "K": 5, "V": 3001},
        "large": {"B": 128, "K": 4, "V": 32000},
    },
    "baseline_notes": "Two launches for the whole batch: recovered tokens on a (request, draft position) grid, each "
                      "program an argmax of max(p_t - p_d, 0) / q over 4096-wide vocabulary blocks; then one program "
                      "per request walks its K drafts.",
    "deterministic": True,
}

PLACEHOLDER = -1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """draft_token_ids [B, K], draft_probs [B, K, V], target_probs [B, K, V], bonus_token_ids [B], uniform [B, K], q [B, V]."""
    s = META["sizes"][size]
    B, K, V = s["B"], s["K"], s["V"]
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(B, K, V, generator=g) * 3.0
    draft_probs = torch.softmax(logits, dim=-1)
    target_probs = torch.softmax(logits + torch.randn(B, K, V, generator=g), dim=-1)
    draft_ids = torch.multinomial(draft_probs.reshape(B * K, V), 1, generator=g).reshape(B, K)
    bonus = torch.randint(0, V, (B,), generator=g)
    uniform = torch.rand(B, K, generator=g)
    q = -torch.log(torch.rand(B, V, generator=g).clamp_min(1e-10))
    return tuple(t.to(device) for t in (draft_ids, draft_probs, target_probs, bonus, uniform, q))


def reference(draft_ids, draft_probs, target_probs, bonus_ids, uniform, q) -> torch.Tensor:
    B, K = draft_ids.shape
    out = torch.full((B, K + 1), PLACEHOLDER, dtype=torch.int64, device=draft_ids.device)
    recovered = ((target_probs - draft_probs).clamp_min(0.0) / q[:, None, :]).argmax(dim=-1)
    for i in range(B):
        for j in range(K):
            tok = int(draft_ids[i, j])
            p_d, p_t = float(draft_probs[i, j, tok]), float(target_probs[i, j, tok])
            if p_d > 0 and p_t / p_d >= float(uniform[i, j]):
                out[i, j] = tok
            else:
                out[i, j] = recovered[i, j]
                break
        else:
            out[i, K] = bonus_ids[i]
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["B"] * s["K"] * s["V"] + 4 * s["B"] * s["V"], "flops": 3 * s["B"] * s["K"] * s["V"]}
