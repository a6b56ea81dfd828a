"""LGM 1F state evolution and numeraire deflators on an XVA exposure grid (ORE CrossAssetModel, IR component).

ORE simulates its IR factor in the Linear Gauss Markov parametrisation: the state x(t) is a driftless
Gaussian martingale with variance zeta(t) = int_0^t alpha(s)^2 ds, evolved exactly between grid dates,
    x(t_i) = x(t_{i-1}) + sqrt(zeta(t_i) - zeta(t_{i-1})) * Z_i,       x(0) = 0,
and every trade NPV on the path is divided by the LGM numeraire
    N(t, x) = exp(H(t) x + 0.5 H(t)^2 zeta(t)) / P(0, t),
so the simulation also writes the deflator D(t, x) = 1 / N(t, x) = P(0, t) exp(-H(t) x - 0.5 H(t)^2 zeta(t)).
Here H(t) = (1 - exp(-kappa t)) / kappa and zeta(t) = sigma^2 (exp(2 kappa t) - 1) / (2 kappa) (the
Hull-White-equivalent LGM), P(0, t) from a smooth zero curve. z holds the standard normals time-major
([dates, samples], one row per date as the path generator emits them). Returns (x [T, S], D [T, S])
at the exposure dates t_1..t_T (today is not part of the cube).
"""
import math

import torch

META = {
    "name": "lgm_state_deflator_paths",
    "level": 2,
    "category": "monte_carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 12, "S": 256},
        "ragged": {"T": 7, "S": 300},
        "large": {"T": 360, "S": 65536},
    },
    "baseline_notes": "One launch: min(40, cdiv(S, 2048)) programs (the A2's vector cores) take blocks of "
                      "2,048 samples and walk all exposure dates in a loop, carrying the LGM state in "
                      "registers; per date one contiguous 8 KiB load of the normals and two 8 KiB stores "
                      "(state and deflator); the date schedule (zeta, H, P(0, t)) is read as scalars.",
    "deterministic": True,
}
KAPPA = 0.01    # LGM / Hull-White mean reversion
SIGMA = 0.01    # Hull-White normal volatility
DT = 1.0 / 12   # monthly exposure grid


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [T, S] standard normals, and the date schedule zeta [T+1], H [T+1], P(0, t) [T+1] (index 0 = today)."""
    s = META["sizes"][size]
    T, S = s["T"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.randn(T, S, generator=g)
    t = torch.arange(T + 1, dtype=torch.float64) * DT
    zeta = SIGMA ** 2 * torch.expm1(2.0 * KAPPA * t) / (2.0 * KAPPA)
    H = -torch.expm1(-KAPPA * t) / KAPPA
    zero = 0.025 + 0.012 * (1.0 - torch.exp(-t / 6.0))
    p0 = torch.exp(-zero * t)
    return (z.to(device=device, dtype=dt), zeta.to(device=device, dtype=dt),
            H.to(device=device, dtype=dt), p0.to(device=device, dtype=dt))


def reference(z: torch.Tensor, zeta: torch.Tensor, H: torch.Tensor, p0: torch.Tensor) -> tuple:
    zd, ze, h, p = z.double(), zeta.double(), H.double(), p0.double()
    sd = torch.sqrt(ze[1:] - ze[:-1])
    x = torch.cumsum(sd[:, None] * zd, dim=0)
    d = p[1:, None] * torch.exp(-h[1:, None] * x - 0.5 * (h[1:] ** 2 * ze[1:])[:, None])
    return x.to(z.dtype), d.to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, S = s["T"], s["S"]
    return {"bytes": 12 * T * S + 12 * (T + 1), "flops": 8 * T * S}


if __name__ == "__main__":
    out = reference(*make_inputs("small"))
    print([o.shape for o in out], math.isfinite(float(out[1].sum())))
