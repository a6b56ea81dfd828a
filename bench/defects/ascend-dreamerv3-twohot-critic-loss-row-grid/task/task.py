"""DreamerV3 critic loss: negative log-likelihood of symlog two-hot value targets (DiscDist / TwoHot log_prob).

The critic predicts logits over K = 255 bins spaced evenly in symlog space (bins = linspace(-20, 20, K)).
A value target x (the lambda-return of an imagined trajectory) is mapped to y = symlog(x) = sign(x) log(1 + |x|)
and encoded two-hot on its two neighbouring bins, exactly as DreamerV3 writes it:
    below = clip(#(bins <= y) - 1, 0, K - 1),   above = clip(K - #(bins > y), 0, K - 1)
    d_below = |bins[below] - y|, d_above = |bins[above] - y|   (both 1 when below == above)
    w_below = d_above / (d_below + d_above),  w_above = d_below / (d_below + d_above)
    loss[n] = -(w_below * log_softmax(logits[n])[below] + w_above * log_softmax(logits[n])[above])
Returns loss [N] fp32; the return-scale weighting and the mean over batch and horizon happen outside.
"""
import torch

META = {
    "name": "twohot_symlog_critic_loss",
    "level": 2,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 24, "K": 255},
        "ragged": {"N": 37, "K": 255},
        "large": {"N": 16384, "K": 255},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 16 rows x the whole 255-bin row "
                      "(BK = 256): row max / exp-sum / log on the contiguous axis, the two-hot bin search as "
                      "compare-and-count against the bin vector, the two picked log-probs and bin values as "
                      "masked row sums; one [16] store per block. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [N, K], value targets [N] (raw return scale), bins [K] (linspace(-20, 20, K))."""
    s = META["sizes"][size]
    N, K = s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(N, K, generator=g) * 2.0
    target = torch.randn(N, generator=g) * 30.0
    target[: max(1, N // 8)] = 0.0  # exact bin hit (below == above) at symlog(0) = 0
    bins = torch.linspace(-20.0, 20.0, K)
    return logits.to(dt).to(device), target.to(dt).to(device), bins.to(dt).to(device)


def reference(logits: torch.Tensor, target: torch.Tensor, bins: torch.Tensor) -> torch.Tensor:
    x, t, b = logits.double(), target.double(), bins.double()
    K = b.shape[0]
    y = torch.sign(t) * torch.log1p(t.abs())
    below = ((b[None, :] <= y[:, None]).long().sum(-1) - 1).clamp(0, K - 1)
    above = (K - (b[None, :] > y[:, None]).long().sum(-1)).clamp(0, K - 1)
    equal = below == above
    d_below = torch.where(equal, torch.ones_like(y), (b[below] - y).abs())
    d_above = torch.where(equal, torch.ones_like(y), (b[above] - y).abs())
    total = d_below + d_above
    logp = torch.log_softmax(x, dim=-1)
    lp_below = logp.gather(1, below[:, None])[:, 0]
    lp_above = logp.gather(1, above[:, None])[:, 0]
    loss = -(d_above / total * lp_below + d_below / total * lp_above)
    return loss.to(logits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, K = s["N"], s["K"]
    return {"bytes": 4 * N * K + 8 * N + 4 * K, "flops": 10 * N * K}
