"""Advantage whitening over the response tokens of a PPO batch (verl core_algos masked_whiten, as
compute_gae_advantage_return applies it): mean and unbiased variance over the masked tokens of the whole
batch, then (x - mean) * rsqrt(var + 1e-8) at every position (shift_mean=True)."""
import torch

META = {
    "name": "masked_whiten",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 7, "T": 300},
        "ragged": {"B": 37, "T": 1000},
        "large": {"B": 1024, "T": 2048},
    },
    "baseline_notes": "Three launches: per-block partial sums (sum, sum of squares, count) over 4096-element "
                      "blocks of the flattened batch, one program folding the partials into mean and rstd, "
                      "and an elementwise apply over the same blocks.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """advantages [B, T] and response_mask [B, T] int64 (the attention-mask slice: ones up to each response's length)."""
    s = META["sizes"][size]
    B, T = s["B"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    adv = 0.3 + torch.randn(B, T, generator=g)
    lengths = torch.randint(T // 8, T + 1, (B,), generator=g)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).to(torch.int64)
    return adv.to(device=device, dtype=dt), mask.to(device)


def reference(values: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    v, m = values.double(), mask.double()
    n = m.sum()
    mean = (v * m).sum() / n
    var = (((v - mean) ** 2) * m).sum() / n * (n / (n - 1))
    return ((v - mean) * torch.rsqrt(var + 1e-8)).to(values.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"]
    return {"bytes": 20 * n, "flops": 6 * n}
