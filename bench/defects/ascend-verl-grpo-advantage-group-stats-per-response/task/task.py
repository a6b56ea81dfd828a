"""GRPO outcome advantages (verl core_algos.compute_grpo_outcome_advantage, norm_adv_by_std_in_grpo=True).

Each response's score is the sum of its token-level rewards; responses come in contiguous groups of
G rollouts of one prompt (the layout verl's batch.repeat(interleave=True) produces). Within a group
the score is normalised by the group mean and the unbiased standard deviation (+ eps), and the
advantage is that value broadcast over the response's tokens and multiplied by the response mask.
"""
import torch

META = {
    "name": "grpo_outcome_advantage",
    "level": 2,
    "category": "rl",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 16, "G": 4, "L": 96},
        "ragged": {"B": 15, "G": 5, "L": 203},
        "large": {"B": 8192, "G": 16, "L": 4096},
    },
    "baseline_notes": "Grid of 40 programs (the Atlas A2 vector cores); each program loops over whole groups: "
                      "it sums the group's [G, L] reward rows tile by tile into G scores, takes the group mean "
                      "and unbiased std once, then writes the group's G advantage rows (score * mask) tile by "
                      "tile; fp32 math, int8 mask.",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """token_level_rewards [B, L] (reward at the last response token, zero elsewhere), response_mask
    [B, L] int8 (1 on the response's tokens, 0 on right padding), group size G (int)."""
    s = META["sizes"][size]
    B, G, L = s["B"], s["G"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = torch.randint(max(1, L // 8), L + 1, (B,), generator=g)
    mask = (torch.arange(L)[None, :] < lengths[:, None]).to(torch.int8)
    # rule-based outcome reward (0/1 correctness) plus a small format / length-penalty term
    reward = torch.randint(0, 2, (B,), generator=g).float() + 0.1 * torch.randn(B, generator=g)
    rewards = torch.zeros(B, L)
    rewards[torch.arange(B), lengths - 1] = reward
    return rewards.to(dt).to(device), mask.to(device), G


def reference(rewards: torch.Tensor, mask: torch.Tensor, G: int) -> torch.Tensor:
    scores = rewards.double().sum(-1).view(-1, G)
    mean = scores.mean(-1, keepdim=True)
    std = scores.std(-1, keepdim=True)
    adv = ((scores - mean) / (std + EPS)).view(-1, 1)
    return (adv * mask.double()).to(rewards.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"]
    return {"bytes": 4 * n + n + 4 * n, "flops": 3 * n}
