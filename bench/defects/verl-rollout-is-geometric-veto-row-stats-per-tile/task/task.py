"""verl rollout importance sampling (compute_rollout_importance_weights), geometric level, truncate mode, veto.

Per response: log_ratio = old_log_prob - rollout_log_prob (training FSDP policy vs vLLM rollout
policy); the sequence weight is exp(masked_mean(log_ratio)) with the exponent clamped to +-20 and the
weight truncated at the upper threshold, broadcast to the valid tokens (0 on padding). A response
with any valid token whose ratio is below the veto threshold is rejected: its modified response
mask is 0. Returns (rollout_is_weights, modified_response_mask), both fp32 [N, T].
"""
import math

import torch

UPPER = 1.001          # rollout_is_threshold (geometric level)
VETO = 1e-4            # rollout_is_veto_threshold
SAFETY_BOUND = 20.0

META = {
    "name": "verl_rollout_is_geometric",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 4, "T": 2100},
        "ragged": {"N": 5, "T": 2333},
        "large": {"N": 8192, "T": 8192},
    },
    "baseline_notes": "One program per response: a first loop over its 1024-token tiles sums the masked "
                      "log-ratios, counts valid tokens and flags veto tokens; a second loop writes the "
                      "broadcast weight and the modified mask; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """old_log_prob, rollout_log_prob [N, T] fp32, response_mask [N, T] bool (right padded)."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    old = -3.0 * torch.rand(N, T, generator=g) ** 2
    drift = 2e-3 * torch.randn(N, 1, generator=g)
    rollout = old + drift + 0.02 * torch.randn(N, T, generator=g)
    lengths = torch.randint(1, T + 1, (N, 1), generator=g)
    mask = torch.arange(T)[None, :] < lengths
    vetoed = torch.rand(N, 1, generator=g) < 0.1
    vetoed[-1] = True
    spike = torch.randint(0, T, (N, 1), generator=g) % lengths
    rollout = torch.where(vetoed & (torch.arange(T)[None, :] == spike), old + 12.0, rollout)
    return old.to(device=device, dtype=dt), rollout.to(device=device, dtype=dt), mask.to(device)


def reference(old_log_prob: torch.Tensor, rollout_log_prob: torch.Tensor, response_mask: torch.Tensor):
    log_ratio = old_log_prob.double() - rollout_log_prob.double()
    m = response_mask.double()
    mean = (log_ratio * m).sum(-1, keepdim=True) / (m.sum(-1, keepdim=True) + 1e-8)
    weights = torch.exp(mean.clamp(-SAFETY_BOUND, SAFETY_BOUND)).clamp(max=UPPER).expand_as(m) * m
    catastrophic = (log_ratio < math.log(VETO)) & response_mask
    veto = (~catastrophic.any(-1, keepdim=True)).double()
    return weights.float(), (m * veto).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 17 * s["N"] * s["T"], "flops": 6 * s["N"] * s["T"]}
