"""Proportional prioritized-replay sampling: stratified targets located in the priority prefix sum
(searchsorted(cdf, target, right=True)), then the importance-sampling weight of each drawn transition."""
import torch

META = {
    "name": "per_proportional_sample",
    "level": 2,
    "category": "search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3000, "B": 64},
        "ragged": {"N": 2999, "B": 37},
        "large": {"N": 1048576, "B": 4096},
    },
    "baseline_notes": "Grid over blocks of 128 samples: a vectorised upper-bound binary search of each target in the "
                      "prefix sum (ceil(log2(N + 1)) gathers of the midpoints), then the weight from the drawn priority; "
                      "4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """priorities p^alpha [N], their inclusive prefix sum cdf [N] (torch.cumsum), stratified targets [B] in
    [0, cdf[-1]) (one per equal slice of the total mass), and the IS exponent beta."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    N, B = s["N"], s["B"]
    td_error = torch.rand(N, generator=g).pow(3) * 4.0
    prio = (td_error + 1e-2).pow(0.6).to(dt)
    cdf = torch.cumsum(prio, dim=0)
    seg = cdf[-1] / B
    targets = (torch.arange(B, dtype=dt) + torch.rand(B, generator=g).to(dt)) * seg
    return prio.to(device), cdf.to(device), targets.to(device), 0.4


def reference(prio: torch.Tensor, cdf: torch.Tensor, targets: torch.Tensor, beta: float) -> tuple:
    n = prio.shape[0]
    idx = torch.searchsorted(cdf, targets, right=True).clamp(max=n - 1)
    prob = prio[idx].double() / cdf[-1].double()
    weight = (n * prob) ** (-beta)
    return idx, weight.to(prio.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * (2 + (s["N"] + 1).bit_length()) + 8 * s["B"], "flops": 8 * s["B"]}
