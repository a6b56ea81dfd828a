"""Best split gain per (node, feature) from gradient histograms, as in XGBoost's GPU split evaluator.

hist[node, feature, bin] holds the (grad, hess) sums of the node's rows that fall in that bin.
A split after bin b sends bins <= b left: GL, HL are the prefix sums, GR = G - GL, HR = H - HL,
gain = GL^2/(HL+lambda) + GR^2/(HR+lambda) - G^2/(H+lambda), admissible when both children reach
min_child_weight of hessian. The output is each feature's best admissible gain (0 when none is
positive), which the evaluator then reduces across features.
"""
import torch

META = {
    "name": "xgboost_split_gain",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"NODES": 3, "F": 5, "B": 64},
        "ragged": {"NODES": 3, "F": 7, "B": 255},
        "large": {"NODES": 64, "F": 2000, "B": 256},
    },
    "baseline_notes": "One program per (node, feature), BLOCK = next_power_of_2(B): loads the feature's grad and "
                      "hess bins (interleaved pairs, two stride-2 loads), tl.sum for the totals, tl.cumsum for "
                      "the left sums, the gain of every split point at once, masked tl.max; 4 warps, no autotune.",
    "deterministic": True,
}

REG_LAMBDA = 1.0
MIN_CHILD_WEIGHT = 1.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hist [NODES, F, B, 2] (grad, hess) sums of a binary-logistic objective."""
    s = META["sizes"][size]
    n, f, b = s["NODES"], s["F"], s["B"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    count = torch.randint(0, 48, (n, f, b), generator=g).float()
    signal = 0.3 * torch.tanh(torch.randn(n, f, 1, generator=g) * torch.linspace(-1.5, 1.5, b))
    grad = count * signal + count.sqrt() * 0.45 * torch.randn(n, f, b, generator=g)
    hess = count * (0.12 + 0.1 * torch.rand(n, f, b, generator=g))
    return (torch.stack([grad, hess], dim=-1).to(dt).to(device),)


def reference(hist: torch.Tensor) -> torch.Tensor:
    h64 = hist.double()
    grad, hess = h64[..., 0], h64[..., 1]
    g_tot, h_tot = grad.sum(-1, keepdim=True), hess.sum(-1, keepdim=True)
    gl, hl = grad.cumsum(-1), hess.cumsum(-1)
    gr, hr = g_tot - gl, h_tot - hl
    gain = gl * gl / (hl + REG_LAMBDA) + gr * gr / (hr + REG_LAMBDA) - g_tot * g_tot / (h_tot + REG_LAMBDA)
    ok = (hl >= MIN_CHILD_WEIGHT) & (hr >= MIN_CHILD_WEIGHT)
    best = torch.where(ok, gain, torch.zeros_like(gain)).amax(-1).clamp_min(0.0)
    return best.to(hist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NODES"] * s["F"]
    return {"bytes": 8 * n * s["B"] + 4 * n, "flops": 14 * n * s["B"]}
