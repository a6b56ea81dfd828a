"""GAE over time-major rollout buffers (rl_games A2C discount_values, as IsaacGymEnvs trains with it):
for t = T-1 .. 0, nextnonterminal = 1 - done[t+1] (1 - last_done at the end), delta = r_t + gamma * V_{t+1} *
nextnonterminal - V_t, A_t = delta + gamma * tau * nextnonterminal * A_{t+1}; returns = A + V.
The buffers are [horizon, num_envs] with the environment index contiguous."""
import torch

META = {
    "name": "gae_time_major",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 8, "N": 300},
        "ragged": {"T": 11, "N": 333},
        "large": {"T": 8, "N": 16384},
    },
    "baseline_notes": "One program per 128 contiguous environments walking the horizon backwards: each step is a "
                      "vector load of 128 rewards, values and dones from one time row and two vector stores; "
                      "the advantage is carried per lane. 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rewards, values, dones [T, N] (dones as floats, ~2% resets), last_values [N], last_dones [N], gamma, tau."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rewards = 0.01 * torch.randn(T, N, generator=g)
    values = torch.randn(T, N, generator=g)
    dones = (torch.rand(T, N, generator=g) < 0.02).float()
    last_values = torch.randn(N, generator=g)
    last_dones = (torch.rand(N, generator=g) < 0.02).float()
    return (rewards.to(device=device, dtype=dt), values.to(device=device, dtype=dt),
            dones.to(device=device, dtype=dt), last_values.to(device=device, dtype=dt),
            last_dones.to(device=device, dtype=dt), 0.99, 0.95)


def reference(rewards, values, dones, last_values, last_dones, gamma: float, tau: float) -> tuple:
    # rl_games' loop over reversed(range(horizon_length)), in float64
    r, v, d = rewards.double(), values.double(), dones.double()
    T = r.shape[0]
    adv = torch.empty_like(r)
    last = torch.zeros_like(r[0])
    for t in reversed(range(T)):
        if t == T - 1:
            nextnonterminal = 1.0 - last_dones.double()
            nextvalues = last_values.double()
        else:
            nextnonterminal = 1.0 - d[t + 1]
            nextvalues = v[t + 1]
        delta = r[t] + gamma * nextvalues * nextnonterminal - v[t]
        last = delta + gamma * tau * nextnonterminal * last
        adv[t] = last
    return adv.to(rewards.dtype), (adv + v).to(rewards.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["N"]
    return {"bytes": 20 * n + 8 * s["N"], "flops": 8 * n}
