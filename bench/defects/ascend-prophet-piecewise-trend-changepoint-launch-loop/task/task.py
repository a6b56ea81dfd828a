"""Prophet's piecewise-linear trend for a fleet of series fitted on one shared date grid.

Prophet (forecaster.piecewise_linear) evaluates, for scaled time t (history in [0, 1], the forecast
beyond 1) and the changepoints c_j (n_changepoints = 25, spread over the first 80 % of the history):
    k_t = k + sum_j [t >= c_j] delta_j                   (slope after every passed changepoint)
    m_t = m + sum_j [t >= c_j] (-c_j * delta_j)          (offsets that keep the trend continuous)
    trend(t) = (k_t * t + m_t) * y_scale                 (predict_trend, floor = 0 for linear growth)
Here S series share the date grid and the changepoints, each with its own MAP k, m, delta and
y_scale. Tables are wide (dates x series, as a pivoted pandas frame): delta is [C, S] and the
output is [T, S], so a changepoint's deltas for a block of series are one contiguous row.
"""
import torch

META = {
    "name": "prophet_piecewise_linear_trend",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 24, "T": 40, "T_hist": 30, "C": 5},
        "ragged": {"S": 37, "T": 53, "T_hist": 41, "C": 7},
        "large": {"S": 4096, "T": 2192, "T_hist": 1461, "C": 25},
    },
    "baseline_notes": "min(40, tiles) programs (the A2's vector cores) loop over [16 dates x 256 series] "
                      "tiles; each tile starts from k and m, walks the C changepoints in a device loop "
                      "(one scalar changepoint time and one contiguous 256-wide delta row per step), "
                      "keeps slope and offset in the UB and stores (k_t * t + m_t) * y_scale once. "
                      "One launch, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """t [T], changepoints_t [C], k [S], m [S], delta [C, S], y_scale [S]."""
    s = META["sizes"][size]
    S, T, T_hist, C = s["S"], s["T"], s["T_hist"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = (torch.arange(T, dtype=torch.float64) / (T_hist - 1)).to(dt)
    # Prophet: changepoints at evenly spaced history rows of the first 80 %, the first row excluded.
    idx = torch.linspace(0, 0.8 * (T_hist - 1), C + 1).round().long()[1:]
    cp = t[idx].clone()
    k = torch.randn(S, generator=g) * 0.8
    m = torch.rand(S, generator=g)
    u = torch.rand(C, S, generator=g) - 0.5
    delta = -0.05 * torch.sign(u) * torch.log1p(-2.0 * u.abs())       # Laplace(0, 0.05)
    y_scale = 10.0 + torch.rand(S, generator=g) * 990.0
    return (t.to(device), cp.to(device), k.to(dt).to(device), m.to(dt).to(device),
            delta.to(dt).to(device), y_scale.to(dt).to(device))


def reference(t, cp, k, m, delta, y_scale) -> torch.Tensor:
    on = (t.double()[:, None] >= cp.double()[None, :]).double()       # [T, C]
    d = delta.double()                                                # [C, S]
    k_t = k.double()[None, :] + on @ d
    m_t = m.double()[None, :] + on @ (-cp.double()[:, None] * d)
    trend = (k_t * t.double()[:, None] + m_t) * y_scale.double()[None, :]
    return trend.to(t.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, T, C = s["S"], s["T"], s["C"]
    return {"bytes": 4 * (S * T + T + C + 3 * S + C * S), "flops": 4 * S * T * C + 3 * S * T}
