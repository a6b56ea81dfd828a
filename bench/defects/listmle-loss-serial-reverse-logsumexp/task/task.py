"""ListMLE listwise ranking loss per slate (allRank listMLE / TF-Ranking ListMLELoss, Plackett-Luce likelihood).

For each slate the candidates are taken in descending-label order (order[q, :n]); the loss is
sum_i [ log sum_{k >= i} exp(s_k) - s_i ] over the slate's n valid candidates.
"""
import torch

META = {
    "name": "listmle_slate_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"Q": 6, "L": 40},
        "ragged": {"Q": 7, "L": 77},
        "large": {"Q": 4096, "L": 1024},
    },
    "baseline_notes": "One program per slate, BLOCK = next_power_of_2(L): gathers the slate's scores in label order, "
                      "subtracts the max, exp, reverse tl.cumsum for the suffix sums, log, masked sum; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [Q, L], order [Q, L] int32 (candidates by descending label, padding last), lengths [Q] int32."""
    s = META["sizes"][size]
    Q, L = s["Q"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scores = torch.randn(Q, L, generator=g) * 2.0
    lengths = torch.randint(L // 2, L + 1, (Q,), generator=g)
    lengths[0] = L
    labels = torch.randint(0, 5, (Q, L), generator=g).float()
    labels[torch.arange(L)[None, :] >= lengths[:, None]] = -1.0
    # allRank shuffles before the sort so that ties are broken at random
    jitter = torch.rand(Q, L, generator=g) * 0.5
    order = torch.argsort(labels + jitter, dim=1, descending=True).to(torch.int32)
    return scores.to(dt).to(device), order.to(device), lengths.to(torch.int32).to(device)


def reference(scores: torch.Tensor, order: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    s = torch.gather(scores.double(), 1, order.long())
    valid = torch.arange(s.shape[1], device=s.device)[None, :] < lengths[:, None].long()
    s = s.masked_fill(~valid, float("-inf"))
    tail = torch.logcumsumexp(s.flip(1), dim=1).flip(1)
    terms = torch.where(valid, tail - s, torch.zeros_like(s))
    return terms.sum(1).to(scores.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["Q"] * s["L"] + 8 * s["Q"], "flops": 6 * s["Q"] * s["L"]}
