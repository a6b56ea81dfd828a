"""Shortwave two-stream layer coefficients of RTE+RRTMGP (rte-kernels `sw_two_stream`, Zdunkowski PIFM).

For every column c, layer l and g-point j, from the optical depth tau, single-scattering albedo w and
asymmetry parameter g of the layer, and the cosine of the solar zenith angle mu0[c] of the column:
    gamma1 = (8 - w (5 + 3 g)) / 4          gamma2 = 3 w (1 - g) / 4
    gamma3 = (2 - 3 mu0 g) / 4              gamma4 = 1 - gamma3
    alpha1 = gamma1 gamma4 + gamma2 gamma3  alpha2 = gamma1 gamma3 + gamma2 gamma4
    k = sqrt(max((gamma1 - gamma2)(gamma1 + gamma2), 1e-12)),  e1 = exp(-k tau),  e2 = e1^2
    R = 1 / (k (1 + e2) + gamma1 (1 - e2))
    Rdif = R gamma2 (1 - e2),  Tdif = 2 R k e1,  Tnoscat = exp(-tau / mu0)
    Rdir, Tdir from Meador & Weaver eq. 14 (numerators below), divided by 1 - (k mu0)^2,
    then limited to 0 <= Rdir <= 1 - Tnoscat and 0 <= Tdir <= 1 - Tnoscat - Rdir.
The removable singularity at k mu0 = 1 is guarded with a sign-preserving floor of 1e-3 on |1 - (k mu0)^2|
(these are fp32 kernels; RTE's double-precision build uses epsilon). Arrays are [ncol, nlay, ngpt]
row-major (g-point fastest), mu0 is [ncol]. Returns (Rdif, Tdif, Rdir, Tdir, Tnoscat).
"""
import torch

META = {
    "name": "sw_two_stream_pifm",
    "level": 1,
    "category": "radiative_transfer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"ncol": 3, "nlay": 4, "ngpt": 16},
        "ragged": {"ncol": 5, "nlay": 7, "ngpt": 14},
        "large": {"ncol": 1800, "nlay": 60, "ngpt": 224},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (column, block of 1024 layer x g-point "
                      "elements) work items: mu0 is one scalar load per item, tau/ssa/g are contiguous "
                      "1024-element tiles, the five coefficients are computed in fp32 and stored contiguously.",
    "deterministic": True,
}
KMU_GUARD = 1e-3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tau, ssa, g [ncol, nlay, ngpt] (gas + aerosol + cloud optics), mu0 [ncol] (sunlit columns)."""
    s = META["sizes"][size]
    shape = (s["ncol"], s["nlay"], s["ngpt"])
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tau = torch.exp(torch.randn(shape, generator=gen) * 2.5 - 3.0)      # ~1e-6 .. 1e2, log-normal
    ssa = torch.rand(shape, generator=gen)
    g = torch.rand(shape, generator=gen) * 0.9
    mu0 = 0.05 + 0.95 * torch.rand(s["ncol"], generator=gen)
    return tuple(x.to(dt).to(device) for x in (tau, ssa, g, mu0))


def reference(tau: torch.Tensor, ssa: torch.Tensor, g: torch.Tensor, mu0: torch.Tensor) -> tuple:
    t, w, gg = tau.double(), ssa.double(), g.double()
    mu = mu0.double()[:, None, None]
    gamma1 = (8.0 - w * (5.0 + 3.0 * gg)) * 0.25
    gamma2 = 3.0 * (w * (1.0 - gg)) * 0.25
    gamma3 = (2.0 - 3.0 * mu * gg) * 0.25
    gamma4 = 1.0 - gamma3
    alpha1 = gamma1 * gamma4 + gamma2 * gamma3
    alpha2 = gamma1 * gamma3 + gamma2 * gamma4
    k = torch.sqrt(torch.clamp((gamma1 - gamma2) * (gamma1 + gamma2), min=1e-12))
    e1 = torch.exp(-t * k)
    e2 = e1 * e1
    rt = 1.0 / (k * (1.0 + e2) + gamma1 * (1.0 - e2))
    rdif = rt * gamma2 * (1.0 - e2)
    tdif = rt * 2.0 * k * e1
    tnoscat = torch.exp(-t / mu)
    kmu = k * mu
    den = 1.0 - kmu * kmu
    den = torch.where(den.abs() >= KMU_GUARD, den,
                      torch.where(den < 0, torch.full_like(den, -KMU_GUARD), torch.full_like(den, KMU_GUARD)))
    rt2 = w * rt / den
    rdir = rt2 * ((1.0 - kmu) * (alpha2 + k * gamma3) - (1.0 + kmu) * (alpha2 - k * gamma3) * e2
                  - 2.0 * (k * gamma3 - alpha2 * kmu) * e1 * tnoscat)
    tdir = -rt2 * ((1.0 + kmu) * (alpha1 + k * gamma4) * tnoscat - (1.0 - kmu) * (alpha1 - k * gamma4) * e2 * tnoscat
                   - 2.0 * (k * gamma4 + alpha1 * kmu) * e1)
    rdir = torch.clamp(torch.minimum(rdir, 1.0 - tnoscat), min=0.0)
    tdir = torch.clamp(torch.minimum(tdir, 1.0 - tnoscat - rdir), min=0.0)
    return tuple(x.to(tau.dtype) for x in (rdif, tdif, rdir, tdir, tnoscat))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ncol"] * s["nlay"] * s["ngpt"]
    return {"bytes": 32 * n + 4 * s["ncol"], "flops": 90 * n}
