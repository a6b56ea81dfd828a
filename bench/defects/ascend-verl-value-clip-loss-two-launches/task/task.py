"""Clipped value-function loss of the PPO critic (verl core_algos.compute_value_loss).

Per token: vpred_clipped = clamp(vpred, value_old - eps, value_old + eps);
loss = max((vpred - ret)^2, (vpred_clipped - ret)^2). vf_loss = 0.5 * token-mean of the loss over the
batch token count (batch_num_tokens, passed in); vf_clipfrac = token-mean of [(vpred_clipped - ret)^2 >
(vpred - ret)^2]. Output: float32 [2] = (vf_loss, vf_clipfrac).
"""
import torch

META = {
    "name": "ppo_clipped_value_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 8, "L": 300},
        "ragged": {"B": 13, "L": 1111},
        "large": {"B": 512, "L": 8192},
    },
    "baseline_notes": "One launch, grid of 40 programs (the Atlas A2 vector cores) over the flattened [B*L] "
                      "tokens in 2048-token tiles: loads vpreds, old values, returns and the int8 mask, computes "
                      "the clipped squared error and the clip flag, keeps two fp32 tile accumulators in the "
                      "unified buffer and adds their sums (scaled by 1 / batch_num_tokens) into the [2] output "
                      "with one atomic each at the end.",
    "deterministic": True,
}

CLIPRANGE_VALUE = 0.5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vpreds, values (old), returns [B, L] fp32; response_mask [B, L] int8; batch_num_tokens (float)."""
    s = META["sizes"][size]
    B, L = s["B"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    values = torch.randn(B, L, generator=g)
    vpreds = values + 0.6 * torch.randn(B, L, generator=g)
    returns = values + torch.randn(B, L, generator=g)
    lengths = torch.randint(max(1, L // 8), L + 1, (B,), generator=g)
    mask = (torch.arange(L)[None, :] < lengths[:, None]).to(torch.int8)
    num_tokens = float(mask.sum().item())
    return (vpreds.to(dt).to(device), values.to(dt).to(device), returns.to(dt).to(device),
            mask.to(device), num_tokens)


def reference(vpreds, values, returns, mask, num_tokens):
    v, old, ret, m = vpreds.double(), values.double(), returns.double(), mask.double()
    clipped = torch.clamp(v, old - CLIPRANGE_VALUE, old + CLIPRANGE_VALUE)
    l1 = (v - ret) ** 2
    l2 = (clipped - ret) ** 2
    loss = torch.maximum(l1, l2)
    out = torch.stack([0.5 * (loss * m).sum(), (torch.gt(l2, l1).double() * m).sum()]) / num_tokens
    return out.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"]
    return {"bytes": 13 * n + 8, "flops": 12 * n}
