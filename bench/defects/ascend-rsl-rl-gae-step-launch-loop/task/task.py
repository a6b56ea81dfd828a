"""GAE returns of an on-policy rollout (rsl_rl RolloutStorage.compute_returns, legged_gym / Isaac Lab PPO).

The rollout storage is time-major: rewards, values and dones are [T, N] (T transitions per env, N parallel
environments), last_values [N] is the critic's value of the observation after the last step. Walking
backwards in time with next_values = last_values at t = T - 1 and values[t + 1] before that:
    not_done[t]  = 1 - dones[t]
    delta[t]     = rewards[t] + not_done[t] * gamma * next_values - values[t]
    advantage[t] = delta[t] + not_done[t] * gamma * lam * advantage[t + 1]      (advantage[T] = 0)
    returns[t]   = advantage[t] + values[t]
Returns (returns [T, N], advantages [T, N]) in fp32; the batch normalisation of the advantages that
rsl_rl applies afterwards happens outside this kernel.
"""
import torch

META = {
    "name": "gae_returns_time_major",
    "level": 2,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 6, "N": 96},
        "ragged": {"T": 5, "N": 77},
        "large": {"T": 24, "N": 4096},
    },
    "baseline_notes": "One launch of min(40, cdiv(N, 128)) programs (the A2's vector cores); each program owns "
                      "blocks of 128 environments (contiguous 512-byte rows of the time-major storage) and walks "
                      "t = T-1 .. 0 in an in-kernel loop, carrying next_values and the running advantage in "
                      "registers; dones are read as uint8. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rewards [T, N], values [T, N], dones [T, N] uint8, last_values [N], gamma, lam (rsl_rl defaults)."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rewards = torch.randn(T, N, generator=g) * 0.5 + 0.2
    values = torch.randn(T, N, generator=g) * 2.0 + 1.0
    dones = (torch.rand(T, N, generator=g) < 0.02).to(torch.uint8)
    last_values = torch.randn(N, generator=g) * 2.0 + 1.0
    return (rewards.to(dt).to(device), values.to(dt).to(device), dones.to(device),
            last_values.to(dt).to(device), 0.99, 0.95)


def reference(rewards, values, dones, last_values, gamma: float, lam: float) -> tuple:
    r, v, lv = rewards.double(), values.double(), last_values.double()
    not_done = 1.0 - dones.double()
    T = r.shape[0]
    returns = torch.empty_like(r)
    advantage = torch.zeros_like(lv)
    for step in reversed(range(T)):
        next_values = lv if step == T - 1 else v[step + 1]
        delta = r[step] + not_done[step] * gamma * next_values - v[step]
        advantage = delta + not_done[step] * gamma * lam * advantage
        returns[step] = advantage + v[step]
    return returns.to(rewards.dtype), (returns - v).to(rewards.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    return {"bytes": T * N * (4 + 4 + 1 + 4 + 4) + 4 * N, "flops": 10 * T * N}
