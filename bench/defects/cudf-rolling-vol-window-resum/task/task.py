"""Rolling mean and rolling volatility of daily returns for a universe of stocks (cuDF / pandas
`DataFrame.rolling(W).mean()` and `.std()` as used by factor libraries, e.g. qlib's Mean/Std($ret, W)).

returns is [S, T] with each stock's series contiguous; only full windows are produced (min_periods = W):
mean[s, j] = mean(returns[s, j:j+W]), std[s, j] = unbiased std (ddof = 1) of the same window, j in [0, T-W].
"""
import torch

META = {
    "name": "rolling_mean_std",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 5, "T": 60, "W": 10},
        "ragged": {"S": 7, "T": 131, "W": 21},
        "large": {"S": 8192, "T": 2520, "W": 252},
    },
    "baseline_notes": "One program per stock walks its series in blocks of 512 outputs: window sums are updated "
                      "with the entering-minus-leaving increments through tl.cumsum plus a carried running sum "
                      "(and sum of squares); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """returns [S, T] daily log returns (drift 3e-4, per-stock vol 1-4%), window W (int)."""
    s = META["sizes"][size]
    S, T, W = s["S"], s["T"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol = 0.01 + 0.03 * torch.rand(S, 1, generator=g)
    returns = 3e-4 + vol * torch.randn(S, T, generator=g)
    return returns.to(dt).to(device), W


def reference(returns: torch.Tensor, window: int):
    win = returns.double().unfold(1, window, 1)
    return win.mean(-1).to(returns.dtype), win.std(-1, unbiased=True).to(returns.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, T, W = s["S"], s["T"], s["W"]
    return {"bytes": 4 * S * T + 8 * S * (T - W + 1), "flops": 8 * S * (T - W + 1)}
