"""IMPALA V-trace targets (torchbeast vtrace.from_importance_weights / scalable_agent vtrace.py).

Time-major rollouts [T, B]. With rho = exp(log_rhos), rho_c = min(rho_bar, rho), c = min(c_bar, rho):
  delta_t = rho_c_t * (r_t + discount_t * V_{t+1} - V_t)
  vs_t - V_t = delta_t + discount_t * c_t * (vs_{t+1} - V_{t+1})      (backwards in t, 0 after T-1)
  pg_adv_t = min(pg_rho_bar, rho_t) * (r_t + discount_t * vs_{t+1} - V_t)
with V_T = vs_T = bootstrap_value; rho_bar = c_bar = pg_rho_bar = 1.
"""
import torch

META = {
    "name": "vtrace_targets",
    "level": 2,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 12, "B": 64},
        "ragged": {"T": 13, "B": 75},
        "large": {"T": 80, "B": 8192},
    },
    "baseline_notes": "Vector cores (40) as the grid, each program strides over env tiles of next_pow2(cdiv(B, 40)) "
                      "trajectories and walks the unroll backwards once, carrying vs_{t+1} - V_{t+1} in the tile.",
    "deterministic": True,
}

CLIP_RHO, CLIP_C, CLIP_PG_RHO = 1.0, 1.0, 1.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """log_rhos, discounts (gamma * not-done), rewards, values [T, B]; bootstrap_value [B]."""
    s = META["sizes"][size]
    T, B = s["T"], s["B"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    log_rhos = torch.randn(T, B, generator=g) * 0.5
    dones = torch.rand(T, B, generator=g) < 0.02
    discounts = (~dones).float() * 0.99
    rewards = torch.randn(T, B, generator=g).clamp(-1.0, 1.0)
    values = torch.randn(T, B, generator=g)
    bootstrap = torch.randn(B, generator=g)
    return tuple(x.to(dt).to(device) for x in (log_rhos, discounts, rewards, values, bootstrap))


def reference(log_rhos, discounts, rewards, values, bootstrap):
    lr, disc, r, v, boot = (x.double() for x in (log_rhos, discounts, rewards, values, bootstrap))
    rhos = torch.exp(lr)
    rho_c = rhos.clamp(max=CLIP_RHO)
    cs = rhos.clamp(max=CLIP_C)
    v_next = torch.cat([v[1:], boot[None]], 0)
    deltas = rho_c * (r + disc * v_next - v)
    acc = torch.zeros_like(boot)
    out = []
    for t in range(lr.shape[0] - 1, -1, -1):
        acc = deltas[t] + disc[t] * cs[t] * acc
        out.append(acc)
    vs = torch.stack(out[::-1]) + v
    vs_next = torch.cat([vs[1:], boot[None]], 0)
    pg = rhos.clamp(max=CLIP_PG_RHO) * (r + disc * vs_next - v)
    return vs.to(values.dtype), pg.to(values.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["B"]
    return {"bytes": 4 * (6 * n + s["B"]), "flops": 16 * n}
