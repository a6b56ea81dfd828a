"""Generalised advantage estimation (PPO): advantages by the reverse recurrence A_t = delta_t + gamma * lam * A_{t+1}, and returns."""
import torch

META = {
    "name": "gae_advantages",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 5, "T": 1300},
        "ragged": {"B": 61, "T": 1000},
        "large": {"B": 1024, "T": 2048},
    },
    "baseline_notes": "One program per sequence walking 512-token blocks from the end; each block is one reverse "
                      "tl.associative_scan of the affine maps (gamma * lam, delta_t) plus the carried advantage; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rewards [B, T] (KL penalty per token, score on the last token), values [B, T] from the critic, gamma, lam."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rewards = -0.05 * torch.rand(s["B"], s["T"], generator=g)
    rewards[:, -1] += torch.randn(s["B"], generator=g)
    values = torch.randn(s["B"], s["T"], generator=g) * 0.5
    return rewards.to(dt).to(device), values.to(dt).to(device), 1.0, 0.95


def reference(rewards: torch.Tensor, values: torch.Tensor, gamma: float, lam: float) -> tuple:
    # TRL PPOTrainer's loop, in float64 for a clean ground truth
    r, v = rewards.double(), values.double()
    T = r.shape[1]
    last = torch.zeros_like(r[:, 0])
    adv = torch.empty_like(r)
    for t in reversed(range(T)):
        nextv = v[:, t + 1] if t < T - 1 else torch.zeros_like(last)
        last = r[:, t] + gamma * nextv - v[:, t] + gamma * lam * last
        adv[:, t] = last
    return adv.to(rewards.dtype), (adv + v).to(rewards.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"]
    return {"bytes": 16 * n, "flops": 6 * n}
