"""Discounted n-step returns with episode cuts and value bootstrap (TorchRL MultiStep / n-step TD target).

TorchRL collectors hand trajectories over batch-first: reward[e, t], done[e, t] for E envs and T steps
(time is the last, contiguous axis), plus the critic's values V[e, t] of s_0 .. s_T (T + 1 columns,
the last one the bootstrap of the state after the batch). For every step t the n-step target is

    G_t = sum_{k < m} gamma^k c_{t,k} r_{t+k}  +  gamma^m c_{t,m} V_{t+m},   m = min(n, T - t),
    c_{t,k} = prod_{j < k} (1 - done_{t+j})

i.e. the window stops accumulating (and bootstraps nothing) after a terminal step, and near the end
of the batch it is truncated and bootstraps from V_T. Returns G [E, T] fp32.
"""
import torch

META = {
    "name": "nstep_return",
    "level": 2,
    "category": "rl-returns",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 8, "T": 64, "n": 3},
        "ragged": {"E": 7, "T": 90, "n": 3},
        "large": {"E": 4096, "T": 512, "n": 3},
    },
    "baseline_notes": "40 programs loop over [16 envs x 256 steps] tiles with time on the contiguous last axis; "
                      "for each of the n window offsets the shifted reward and done tiles are loaded "
                      "contiguously, the running discount c*gamma^k is kept on-chip, and the bootstrap is "
                      "V[t+n] (or V[T] past the end of the batch); one store per tile.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """reward [E, T], done [E, T] bool (~1% terminal steps), value [E, T + 1], gamma (float), n (int)."""
    s = META["sizes"][size]
    E, T = s["E"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    reward = torch.randn(E, T, generator=g) * 0.5 + 0.1
    done = torch.rand(E, T, generator=g) < 0.01
    value = torch.randn(E, T + 1, generator=g) * 2.0 + 5.0
    return reward.to(dt).to(device), done.to(device), value.to(dt).to(device), 0.99, s["n"]


def reference(reward: torch.Tensor, done: torch.Tensor, value: torch.Tensor, gamma: float, n: int) -> torch.Tensor:
    E, T = reward.shape
    r, v = reward.double(), value.double()
    notdone = (~done).double()
    ret = torch.zeros(E, T, dtype=torch.float64, device=reward.device)
    disc = torch.ones(E, T, dtype=torch.float64, device=reward.device)
    t = torch.arange(T, device=reward.device)
    for k in range(n):
        idx = t + k
        inb = idx < T
        safe = idx.clamp(max=T - 1)
        rk = torch.where(inb, r[:, safe], torch.zeros_like(r))
        ret = ret + disc * rk
        disc = disc * torch.where(inb, gamma * notdone[:, safe], torch.ones_like(r))
    boot = v[:, (t + n).clamp(max=T)]
    return (ret + disc * boot).to(reward.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E, T, n = s["E"], s["T"], s["n"]
    return {"bytes": E * T * (4 + 1 + 4 + 4), "flops": 4 * n * E * T}
