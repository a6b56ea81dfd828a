"""Per-token GRPO loss (TRL GRPOTrainer._compute_loss: PPO clipped surrogate with a per-completion advantage and a k3 KL penalty).

For completion b and token t, with the policy's, the rollout policy's and the reference model's log-probs of
the sampled token:
    ratio[b, t]  = exp(logp[b, t] - old_logp[b, t])
    clipped      = clamp(ratio, 1 - eps_low, 1 + eps_high)
    kl[b, t]     = exp(ref_logp - logp) - (ref_logp - logp) - 1
    loss[b, t]   = (-min(ratio * adv[b], clipped * adv[b]) + beta * kl) * completion_mask[b, t]
adv [B] is the group-normalised reward of each completion (one scalar per sequence, broadcast over its
tokens); completion_mask is TRL's int32 mask (1 up to and including the first EOS). Returns the masked
per-token loss [B, T] fp32; the loss_type aggregation (grpo / bnpo / dr_grpo) happens outside.
"""
import torch

META = {
    "name": "grpo_token_loss",
    "level": 1,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "T": 160},
        "ragged": {"B": 5, "T": 77},
        "large": {"B": 1024, "T": 2048},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over 2-D tiles of BB completions x BT tokens "
                      "(BT = min(1024, next_power_of_2(T)), BB * BT = 2048): contiguous loads of the three log-prob "
                      "rows and the int32 mask, one [BB] load of the advantages broadcast along the tokens, "
                      "one masked store. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logp, old_logp, ref_logp [B, T], adv [B], completion_mask [B, T] int32, eps_low, eps_high, beta."""
    s = META["sizes"][size]
    B, T = s["B"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    old_logp = -torch.rand(B, T, generator=g).pow(3) * 6.0
    logp = old_logp + torch.randn(B, T, generator=g) * 0.15
    ref_logp = old_logp + torch.randn(B, T, generator=g) * 0.1
    adv = torch.randn(B, generator=g)
    lengths = torch.randint(1, T + 1, (B,), generator=g)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).to(torch.int32)
    return (logp.to(dt).to(device), old_logp.to(dt).to(device), ref_logp.to(dt).to(device),
            adv.to(dt).to(device), mask.to(device), 0.2, 0.28, 0.04)


def reference(logp, old_logp, ref_logp, adv, completion_mask, eps_low: float, eps_high: float,
              beta: float) -> torch.Tensor:
    lp, olp, rlp, a = logp.double(), old_logp.double(), ref_logp.double(), adv.double()
    ratio = torch.exp(lp - olp)
    clipped = torch.clamp(ratio, 1 - eps_low, 1 + eps_high)
    loss = -torch.min(ratio * a[:, None], clipped * a[:, None])
    kl = torch.exp(rlp - lp) - (rlp - lp) - 1
    loss = (loss + beta * kl) * completion_mask.double()
    return loss.to(logp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T = s["B"], s["T"]
    return {"bytes": 20 * B * T + 4 * B, "flops": 14 * B * T}
