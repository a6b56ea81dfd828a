"""Black-Scholes-Merton price and Greeks of a European option book (QuantLib AnalyticEuropeanEngine / BlackCalculator).

For every option o with spot S, strike K, expiry T (years), volatility sigma, continuously compounded
rate r, dividend yield q and type phi (+1 call, -1 put):
    d1 = (ln(S/K) + (r - q + sigma^2/2) T) / (sigma sqrt(T)),   d2 = d1 - sigma sqrt(T)
    price = phi (S e^{-qT} N(phi d1) - K e^{-rT} N(phi d2))
    delta = phi e^{-qT} N(phi d1)
    gamma = e^{-qT} n(d1) / (S sigma sqrt(T))
    vega  = S e^{-qT} n(d1) sqrt(T)
    theta = -S e^{-qT} n(d1) sigma / (2 sqrt(T)) - phi r K e^{-rT} N(phi d2) + phi q S e^{-qT} N(phi d1)   (per year)
    rho   = phi K T e^{-rT} N(phi d2)
Returns greeks fp32 [6, n] with rows price, delta, gamma, vega, theta, rho.
"""
import torch

META = {
    "name": "black_scholes_greeks",
    "level": 1,
    "category": "quantitative-finance",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"n": 1000},
        "ragged": {"n": 4099},
        "large": {"n": 16777216},
    },
    "baseline_notes": "One elementwise launch over the book, BLOCK=1024, 4 warps: each program loads the seven "
                      "per-option inputs once, computes d1, d2, N(phi d1), N(phi d2), n(d1) and the two discount "
                      "factors once and stores all six rows of the [6, n] output; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-option spot, strike, expiry, vol, rate, dividend yield and type (+1/-1), each fp32 [n]."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = lambda lo, hi: lo + (hi - lo) * torch.rand(n, generator=g, dtype=torch.float64)
    spot = u(50.0, 150.0)
    strike = spot * u(0.7, 1.3)
    expiry = u(0.05, 3.0)
    vol = u(0.1, 0.6)
    rate = u(0.0, 0.06)
    div = u(0.0, 0.03)
    phi = torch.where(torch.rand(n, generator=g) < 0.5, 1.0, -1.0).double()
    return tuple(x.to(device=device, dtype=dt) for x in (spot, strike, expiry, vol, rate, div, phi))


def reference(spot, strike, expiry, vol, rate, div, phi) -> torch.Tensor:
    s, k, t, v, r, q, w = (x.double() for x in (spot, strike, expiry, vol, rate, div, phi))
    sqt = torch.sqrt(t)
    sd = v * sqt
    d1 = (torch.log(s / k) + (r - q + 0.5 * v * v) * t) / sd
    d2 = d1 - sd
    dq, dr = torch.exp(-q * t), torch.exp(-r * t)
    n1, n2 = torch.special.ndtr(w * d1), torch.special.ndtr(w * d2)
    pdf = torch.exp(-0.5 * d1 * d1) / (2.0 * torch.pi) ** 0.5
    price = w * (s * dq * n1 - k * dr * n2)
    delta = w * dq * n1
    gamma = dq * pdf / (s * sd)
    vega = s * dq * pdf * sqt
    theta = -s * dq * pdf * v / (2.0 * sqt) - w * r * k * dr * n2 + w * q * s * dq * n1
    rho = w * k * t * dr * n2
    return torch.stack([price, delta, gamma, vega, theta, rho]).to(spot.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": (7 + 6) * 4 * n, "flops": 60 * n}
