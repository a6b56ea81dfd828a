"""n-step Q-learning targets with done masks (R2D2 / Ape-X style), time-major rollout [T, N].

For step t with m = min(n, T - t) steps left in the rollout:
  y_t = sum_{k<m} gamma^k * prod_{j<k}(1 - done_{t+j}) * r_{t+k}
        + gamma^m * prod_{j<m}(1 - done_{t+j}) * next_q_{t+m-1}
next_q_t is the target network's bootstrap value of s_{t+1} (max_a Q_target(s_{t+1}, a), double-Q picked).
"""
import torch

META = {
    "name": "nstep_q_targets",
    "level": 2,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 20, "N": 96},
        "ragged": {"T": 21, "N": 75},
        "large": {"T": 128, "N": 8192},
    },
    "baseline_notes": "40 programs stride over [8, 256] (time, env) tiles; per tile a static loop over the n "
                      "shifted rows carries the discounted reward sum, the alive-discount product and the "
                      "bootstrap term; the rollout-end truncation is a float compare on the rows left.",
    "deterministic": True,
}

N_STEP = 5
GAMMA = 0.997


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rewards, dones (0/1 float), next_q [T, N]."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rewards = torch.randn(T, N, generator=g).clamp(-1.0, 1.0)
    dones = (torch.rand(T, N, generator=g) < 0.05).float()
    next_q = torch.randn(T, N, generator=g) * 3.0
    return tuple(x.to(dt).to(device) for x in (rewards, dones, next_q))


def reference(rewards, dones, next_q):
    r, d, q = rewards.double(), dones.double(), next_q.double()
    T = r.shape[0]
    out = torch.empty_like(r)
    for t in range(T):
        m = min(N_STEP, T - t)
        acc = torch.zeros_like(r[0])
        scale = torch.ones_like(r[0])
        for k in range(m):
            acc = acc + scale * r[t + k]
            scale = scale * GAMMA * (1.0 - d[t + k])
        out[t] = acc + scale * q[t + m - 1]
    return out.to(rewards.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["N"]
    return {"bytes": 4 * 4 * n, "flops": 6 * N_STEP * n}
