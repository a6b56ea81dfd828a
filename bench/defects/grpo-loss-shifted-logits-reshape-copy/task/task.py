"""GRPO / DAPO per-token policy loss straight from the policy logits (Liger-Kernel triton_grpo_loss forward):
per completion token the temperature-scaled log-prob of the sampled id, the clipped importance-ratio surrogate
and the k3 KL to the reference policy. Logits are [B, L + 1, V] (the last position predicts past the
completion and is not used); masked (padding) tokens are skipped and read as zero."""
import torch

META = {
    "name": "grpo_token_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-4, "rtol": 2e-4}},
    "sizes": {
        "small": {"B": 2, "L": 5, "V": 1000},
        "ragged": {"B": 3, "L": 7, "V": 1531},
        "large": {"B": 8, "L": 1024, "V": 151936},
    },
    "baseline_notes": "Grid (B, L), one program per completion token: returns at once on a padding token, else "
                      "an online max / sum-of-exponentials over the V logits of its row in 4,096-wide blocks read "
                      "in place through the [B, L + 1, V] strides, then the scalar loss and KL; 4 warps.",
    "deterministic": True,
}


def _token_logp(logits: torch.Tensor, ids: torch.Tensor, temperature: float) -> tuple:
    """fp64 log-prob of ids and logsumexp of the first L positions, one completion at a time."""
    B, L = ids.shape
    logp = torch.empty(B, L, dtype=torch.float64, device=logits.device)
    lse = torch.empty_like(logp)
    for b in range(B):
        x = logits[b, :L].double() / temperature
        lse[b] = torch.logsumexp(x, dim=-1)
        logp[b] = x.gather(-1, ids[b, :, None])[:, 0] - lse[b]
    return logp, lse


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, L + 1, V], old_logp / ref_logp [B, L] fp32, completion_ids [B, L] int64, advantages [B] fp32,
    completion_mask [B, L] int32 (completions end at a random length), temperature, beta, eps_low, eps_high."""
    s = META["sizes"][size]
    B, L, V = s["B"], s["L"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.empty(B, L + 1, V, dtype=dt, device=device)
    for b in range(B):
        logits[b] = (torch.randn(L + 1, V, generator=g) * 2.0).to(dt)
    ids = torch.randint(0, V, (B, L), generator=g)
    lengths = torch.randint(max(1, L // 4), L + 1, (B,), generator=g)
    mask = (torch.arange(L)[None, :] < lengths[:, None]).to(torch.int32)
    temperature = 0.9
    logp, _ = _token_logp(logits, ids.to(device), temperature)
    logp = logp.cpu()
    old_logp = (logp + 0.3 * torch.randn(B, L, generator=g, dtype=torch.float64)).float()
    ref_logp = (logp + 0.2 * torch.randn(B, L, generator=g, dtype=torch.float64)).float()
    advantages = torch.randn(B, generator=g)
    return (logits, old_logp.to(device), ref_logp.to(device), ids.to(device), advantages.to(device),
            mask.to(device), temperature, 0.04, 0.2, 0.28)


def reference(logits, old_logp, ref_logp, ids, advantages, mask, temperature, beta, eps_low, eps_high):
    logp, lse = _token_logp(logits, ids, temperature)
    coef1 = torch.exp(logp - old_logp.double())
    coef2 = coef1.clamp(1.0 - eps_low, 1.0 + eps_high)
    adv = advantages.double()[:, None]
    loss = -torch.minimum(coef1 * adv, coef2 * adv)
    d = ref_logp.double() - logp
    kl = torch.exp(d) - d - 1.0
    loss = loss + beta * kl
    keep = mask != 0
    zero = torch.zeros_like(loss)
    return (torch.where(keep, loss, zero).float(), torch.where(keep, kl, zero).float(),
            torch.where(keep, lse, zero).float())


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L, V = s["B"], s["L"], s["V"]
    # the logits rows of the completion tokens (all of them, as an upper bound) and the [B, L] side tensors
    return {"bytes": 2 * B * L * V + 4 * B * L * 4 + 8 * B * L + 3 * 4 * B * L, "flops": 4 * B * L * V}
