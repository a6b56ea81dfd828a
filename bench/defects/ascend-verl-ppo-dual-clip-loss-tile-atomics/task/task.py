"""PPO / GRPO clipped surrogate policy loss with dual clip (verl core_algos.compute_policy_loss, vanilla mode).

Per token: ratio = exp(clamp(log_prob - old_log_prob, -20, 20)); the clipped surrogate
max(-A * ratio, -A * clamp(ratio, 1 - clip_low, 1 + clip_high)), further capped at -A * clip_ratio_c
for negative advantages (dual clip). Aggregated with loss_agg_mode="token-mean" over the global
token count of the batch (batch_num_tokens, passed in), as are the metrics: pg_clipfrac, ppo_kl and
pg_clipfrac_lower. Output: float32 [4] = (pg_loss, pg_clipfrac, ppo_kl, pg_clipfrac_lower).
"""
import torch

META = {
    "name": "ppo_dual_clip_policy_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 8, "L": 300},
        "ragged": {"B": 13, "L": 1111},
        "large": {"B": 512, "L": 8192},
    },
    "baseline_notes": "Grid of 40 programs (the Atlas A2 vector cores) over the flattened [B*L] tokens, "
                      "1024-token tiles; each program keeps four fp32 tile accumulators (loss, clipfrac, kl, "
                      "clipfrac_lower) in the unified buffer across its tiles and adds their sums, scaled by "
                      "1 / batch_num_tokens, into the [4] output with one atomic each at the end.",
    "deterministic": True,
}

CLIP_LOW, CLIP_HIGH, CLIP_C = 0.2, 0.28, 3.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """old_log_prob, log_prob, advantages [B, L] fp32; response_mask [B, L] int8; batch_num_tokens (float)."""
    s = META["sizes"][size]
    B, L = s["B"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    old = -torch.rand(B, L, generator=g).pow(2) * 4.0
    new = old + 0.15 * torch.randn(B, L, generator=g)
    # a few stale, strongly off-policy tokens (ratio > clip_ratio_c) exercise the dual clip
    new = new + 1.5 * (torch.rand(B, L, generator=g) < 0.03).float()
    adv = torch.randn(B, 1, generator=g).expand(B, L).contiguous()
    lengths = torch.randint(max(1, L // 8), L + 1, (B,), generator=g)
    mask = (torch.arange(L)[None, :] < lengths[:, None]).to(torch.int8)
    num_tokens = float(mask.sum().item())
    return (old.to(dt).to(device), new.to(dt).to(device), adv.to(dt).to(device), mask.to(device), num_tokens)


def reference(old_log_prob, log_prob, advantages, mask, num_tokens):
    m = mask.double()
    neg_kl = torch.clamp(log_prob.double() - old_log_prob.double(), -20.0, 20.0)
    ratio = torch.exp(neg_kl)
    a = advantages.double()
    l1 = -a * ratio
    l2 = -a * torch.clamp(ratio, 1.0 - CLIP_LOW, 1.0 + CLIP_HIGH)
    c1 = torch.maximum(l1, l2)
    l3 = -a * CLIP_C
    c2 = torch.minimum(l3, c1)
    losses = torch.where(a < 0, c2, c1)
    out = torch.stack([
        (losses * m).sum(),
        (torch.gt(l2, l1).double() * m).sum(),
        (-neg_kl * m).sum(),
        (torch.gt(c1, l3).double() * (a < 0).double() * m).sum(),
    ]) / num_tokens
    return out.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"]
    return {"bytes": 13 * n + 16, "flops": 20 * n}
