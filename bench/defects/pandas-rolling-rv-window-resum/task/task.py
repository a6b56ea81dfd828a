"""Rolling realised volatility of one-second mid-prices per instrument (pandas
`np.log(mid).diff().pow(2).rolling(W, min_periods=1).sum().pow(0.5)` on a [instrument, second] grid, the
Optiver/LOBSTER-style realised-volatility feature).

mid [S, T] fp32 holds each instrument's mid-quote (best bid + best ask) / 2 sampled at the end of every second
of the session (time contiguous per instrument). With r[:, 0] = 0 and r[:, t] = log(mid[:, t] / mid[:, t - 1]):
    rv[:, t] = sqrt(sum_{k = max(0, t - W + 1)}^{t} r[:, k]^2)
Returns rv [S, T] fp32.
"""
import torch

META = {
    "name": "rolling_realized_vol",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 3, "T": 2_100, "W": 40},
        "ragged": {"S": 5, "T": 2_333, "W": 47},
        "large": {"S": 512, "T": 23_400, "W": 300},
    },
    "baseline_notes": "Grid (S, cdiv(T, 1024)): each program takes 1024 seconds of one instrument, sums the W squared "
                      "returns before its block once (a next_power_of_2(W) tile), then adds tl.cumsum of the block's "
                      "squared returns and subtracts tl.cumsum of the squared returns W seconds earlier; sqrt and "
                      "store. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """mid [S, T] (a log random walk with an intraday U-shaped volatility and half-tick rounding) and W (int)."""
    s = META["sizes"][size]
    S, T, W = s["S"], s["T"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.linspace(-1.0, 1.0, T)
    sigma = (0.6 + 1.2 * u * u) * (0.5 + torch.rand(S, 1, generator=g)) * 1.2e-4
    steps = sigma * torch.randn(S, T, generator=g) * (torch.rand(S, T, generator=g) < 0.7)
    steps[:, 0] = 0.0
    p0 = 10.0 + 290.0 * torch.rand(S, 1, generator=g)
    mid = torch.round(p0 * torch.exp(torch.cumsum(steps.double(), 1)) * 200.0) / 200.0
    return mid.to(dt).to(device), W


def reference(mid: torch.Tensor, W: int) -> torch.Tensor:
    m = mid.double()
    r = torch.zeros_like(m)
    r[:, 1:] = torch.log(m[:, 1:] / m[:, :-1])
    c = torch.cumsum(r * r, dim=1)
    lagged = torch.zeros_like(c)
    lagged[:, W:] = c[:, :-W]
    return torch.sqrt((c - lagged).clamp(min=0.0)).to(mid.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["S"] * s["T"], "flops": 6 * s["S"] * s["T"]}
