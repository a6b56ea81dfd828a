"""Default-time sampling of a counterparty portfolio (QuantLib RandomDefaultLM-style latent-model simulation).

After the Gaussian copula has turned each name's correlated latent variable into a uniform u (one per name
and Monte Carlo sample), the default time solves S_c(tau) = u on the name's default curve. The curves are
bootstrapped CDS curves, QuantLib PiecewiseDefaultCurve<HazardRate, BackwardFlat>: hazard rate lam[c, k] is
constant on (t_{k-1}, t_k] between the CDS pillars (t_{-1} = 0) and extrapolated flat after the last pillar,
so the cumulative hazard Lambda_c(t) is piecewise linear and
    tau = t_{k-1} + (E - Lambda_c(t_{k-1})) / lam[c, k],   E = -log(u),
on the segment k with Lambda_c(t_{k-1}) <= E < Lambda_c(t_k). The pillars (6M, 1Y, 2Y, 3Y, 4Y, 5Y, 7Y,
10Y, 15Y, 20Y, 30Y) are shared by all names. Returns tau [names, samples] in years (the exposure engine
compares it with its date grid afterwards).
"""
import torch

META = {
    "name": "hazard_default_times",
    "level": 2,
    "category": "monte_carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 3, "S": 512},
        "ragged": {"C": 5, "S": 300},
        "large": {"C": 2048, "S": 8192},
    },
    "baseline_notes": "min(40, C * cdiv(S, 2048)) programs (the A2's vector cores) loop over blocks of "
                      "2,048 samples of one name: the name is a scalar per block, its 11 hazard rates and "
                      "the pillar times are scalar loads, the cumulative hazard is carried as a scalar, and "
                      "per sample the segment is picked with one compare and three selects per pillar; "
                      "one contiguous load of u and one store of tau per block.",
    "deterministic": True,
}
PILLARS = [0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u [C, S] copula uniforms, pillar times [K], hazard rates [C, K] (BackwardFlat, all > 0)."""
    s = META["sizes"][size]
    C, S, K = s["C"], s["S"], len(PILLARS)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(C, S, generator=g).clamp(1e-7, 1.0 - 1e-7)
    # CDS spreads 40-600 bp, recovery 40%: lam ~ s / (1 - R), with an upward or inverted term structure
    base = torch.exp(torch.empty(C).uniform_(float(torch.log(torch.tensor(0.004))),
                                             float(torch.log(torch.tensor(0.06))), generator=g)) / 0.6
    slope = torch.empty(C).uniform_(-0.3, 0.6, generator=g)
    shape = 1.0 + slope[:, None] * torch.log1p(torch.tensor(PILLARS))[None, :] / 3.5
    lam = (base[:, None] * shape * (1.0 + 0.05 * torch.rand(C, K, generator=g))).clamp(min=1e-4)
    knots = torch.tensor(PILLARS)
    return u.to(device=device, dtype=dt), knots.to(device=device, dtype=dt), lam.to(device=device, dtype=dt)


def reference(u: torch.Tensor, knots: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    e = -torch.log(u.double())
    t = knots.double()
    h = lam.double()
    t_prev = torch.cat([torch.zeros(1, dtype=torch.float64, device=t.device), t[:-1]])
    big = torch.cumsum(h * (t - t_prev)[None, :], dim=1)                 # Lambda(t_k)
    start = torch.cat([torch.zeros_like(big[:, :1]), big[:, :-1]], dim=1)  # Lambda(t_{k-1})
    k = torch.searchsorted(start.contiguous(), e.contiguous(), right=True) - 1  # last k with start <= E
    k = k.clamp(0, t.numel() - 1)
    tau = t_prev[k] + (e - start.gather(1, k)) / h.gather(1, k)
    return tau.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, S, K = s["C"], s["S"], len(PILLARS)
    return {"bytes": 8 * C * S + 4 * C * K + 4 * K, "flops": (4 * K + 4) * C * S}
