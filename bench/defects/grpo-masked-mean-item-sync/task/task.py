"""TRL / Liger-Kernel GRPO loss (PPO-clip surrogate, masked mean over completion tokens, loss_type='bnpo'):
loss = sum(mask * -min(r * A, clip(r, 1 - eps, 1 + eps) * A)) / max(sum(mask), 1), r = exp(logp - old_logp)."""
import torch

META = {
    "name": "grpo_loss",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "T": 500},
        "ragged": {"B": 37, "T": 3001},
        "large": {"B": 256, "T": 4096},
    },
    "baseline_notes": "Per-block partial sums (4096 tokens), then one program adds the partials and divides on the device.",
    "deterministic": True,
}

EPS = 0.2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logp and old_logp [B, T], advantages [B], completion mask [B, T] (int32, right-padded)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, T = s["B"], s["T"]
    old = -3.0 * torch.rand(B, T, generator=g)
    logp = old + 0.3 * torch.randn(B, T, generator=g)
    adv = torch.randn(B, generator=g)
    lens = torch.randint(1, T + 1, (B,), generator=g)
    mask = (torch.arange(T)[None, :] < lens[:, None]).int()
    return logp.to(dt).to(device), old.to(dt).to(device), adv.to(dt).to(device), mask.to(device)


def reference(logp, old_logp, adv, mask) -> torch.Tensor:
    r = torch.exp(logp.double() - old_logp.double())
    a = adv.double()[:, None]
    per_token = -torch.minimum(r * a, r.clamp(1 - EPS, 1 + EPS) * a)
    m = mask.double()
    return ((per_token * m).sum() / m.sum().clamp(min=1)).to(logp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"]
    return {"bytes": n * 12, "flops": 10 * n}
