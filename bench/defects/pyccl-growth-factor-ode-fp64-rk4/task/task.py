"""Linear growth factor and growth rate for a batch of w0waCDM cosmologies (CCL growth ODE).

CCL (ccl_background.c, growth_ode_system) integrates the linear growth equation with
y0 = D, y1 = a^3 E(a) dD/da:  dy0/da = y1 / (a^3 E),  dy1/da = 1.5 Omega_m D / (a^2 E),
starting at a_init = 1e-6 with D = a and y1 = a^3 E(a) (CCL's EPS_SCALEFAC_GROWTH start), where
E^2(a) = Omega_m a^-3 + Omega_r a^-4 + Omega_k a^-2 + Omega_de a^(-3(1 + w0 + wa)) exp(3 wa (a - 1)),
Omega_m = Omega_c + Omega_b, Omega_r h^2 = 4.15e-5 (photons + 3.046 massless neutrinos) and
Omega_de = 1 - Omega_m - Omega_r - Omega_k. Here the equation is advanced in x = ln a with classic
RK4 (fixed steps) over N_OUT spline nodes log-spaced from a_init to 1, SUB steps between nodes, for
every cosmology of a batch (an emulator training set / a sampler's walkers). Returns the
unnormalised growth D(a) = y0 (CCL's growth_factor_unnorm; radiation is in E(a) as in CCL, so D
starts at a_init and ends near 0.02-0.03) and the growth rate f = dlnD/dlna = y1 / (a^2 E D), both
fp32 [N_OUT, N] (node-major).
"""
import math

import torch

META = {
    "name": "growth_factor_ode_batch",
    "level": 2,
    "category": "cosmology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "n_out": 12, "sub": 4},
        "ragged": {"N": 77, "n_out": 9, "sub": 3},
        "large": {"N": 32768, "n_out": 512, "sub": 4},
    },
    "baseline_notes": "One launch; one thread per cosmology (128 per program, 4 warps) keeps fp32 (D, y1) in "
                      "registers through all (N_OUT - 1) * SUB RK4 steps in ln a and stores D and f at "
                      "every node (node-major, coalesced across cosmologies).",
    "deterministic": True,
}
A_INIT = 1e-6
OMEGA_R_H2 = 4.15e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cosmo [6, N] rows (Omega_c, Omega_b, h, Omega_k, w0, wa), a_init, n_out, sub."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(6, n, generator=g)
    lo = torch.tensor([0.20, 0.040, 0.60, -0.05, -1.30, -0.60])[:, None]
    hi = torch.tensor([0.34, 0.056, 0.80, 0.05, -0.70, 0.50])[:, None]
    cosmo = lo + (hi - lo) * u
    return cosmo.to(device=device, dtype=dt), A_INIT, s["n_out"], s["sub"]


def _e_inv_terms(x, om, orad, ok, ode, w0, wa):
    """1 / (a^2 E) and 1.5 Omega_m / (a E) at x = ln a."""
    a = torch.exp(x)
    e2 = (om * torch.exp(-3.0 * x) + orad * torch.exp(-4.0 * x) + ok * torch.exp(-2.0 * x)
          + ode * torch.exp(-3.0 * (1.0 + w0 + wa) * x + 3.0 * wa * (a - 1.0)))
    e = torch.sqrt(e2)
    return 1.0 / (a * a * e), 1.5 * om / (a * e)


def reference(cosmo: torch.Tensor, a_init: float, n_out: int, sub: int) -> tuple:
    c = cosmo.double()
    om = c[0] + c[1]
    orad = OMEGA_R_H2 / (c[2] * c[2])
    ok, w0, wa = c[3], c[4], c[5]
    ode = 1.0 - om - orad - ok
    x0 = math.log(a_init)
    h = -x0 / ((n_out - 1) * sub)
    g1, g2 = _e_inv_terms(torch.full_like(om, x0), om, orad, ok, ode, w0, wa)
    d = torch.full_like(om, a_init)
    y = a_init / g1  # y1 = a^3 E(a) at a_init, i.e. dD/da = 1
    n = c.shape[1]
    growth = torch.empty(n_out, n, dtype=torch.float64, device=c.device)
    rate = torch.empty(n_out, n, dtype=torch.float64, device=c.device)
    growth[0], rate[0] = d, y * g1 / d
    for j in range(1, n_out):
        for s in range(sub):
            x = x0 + ((j - 1) * sub + s) * h
            xm = torch.full_like(om, x + 0.5 * h)
            g1m, g2m = _e_inv_terms(xm, om, orad, ok, ode, w0, wa)
            g1e, g2e = _e_inv_terms(torch.full_like(om, x + h), om, orad, ok, ode, w0, wa)
            k1d, k1y = y * g1, d * g2
            k2d, k2y = (y + 0.5 * h * k1y) * g1m, (d + 0.5 * h * k1d) * g2m
            k3d, k3y = (y + 0.5 * h * k2y) * g1m, (d + 0.5 * h * k2d) * g2m
            k4d, k4y = (y + h * k3y) * g1e, (d + h * k3d) * g2e
            d = d + h / 6.0 * (k1d + 2.0 * k2d + 2.0 * k3d + k4d)
            y = y + h / 6.0 * (k1y + 2.0 * k2y + 2.0 * k3y + k4y)
            g1, g2 = g1e, g2e
        growth[j], rate[j] = d, y * g1 / d
    return growth.to(cosmo.dtype), rate.to(cosmo.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    steps = (s["n_out"] - 1) * s["sub"]
    return {"bytes": 24 * s["N"] + 8 * s["N"] * s["n_out"], "flops": 120 * s["N"] * steps}
