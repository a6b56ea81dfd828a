"""Zonal (flux-surface averaged) potential and rms fluctuation of a gyrokinetic PIC field (GTC-style).

After each field solve a global gyrokinetic PIC code (GTC, GEM, ORB5) splits the electrostatic potential
into its zonal part, the flux-surface average, and the turbulent rest, and records the rms fluctuation
per flux surface. On a mesh of n_zeta toroidal planes, each a poloidal grid of n_psi flux surfaces x
n_theta poloidal points (theta contiguous within a surface), with the poloidal Jacobian J(psi, theta):
    <phi>(psi)     = sum_{zeta, theta} J phi / (n_zeta sum_theta J)
    <phi^2>(psi)   = sum_{zeta, theta} J phi^2 / (n_zeta sum_theta J)
    rms(psi)       = sqrt(max(<phi^2> - <phi>^2, 0))
Returns (<phi> [n_psi], rms [n_psi]).
"""
import math

import torch

META = {
    "name": "zonal_flux_surface_average",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"NZETA": 4, "NPSI": 20, "NTHETA": 96},
        "ragged": {"NZETA": 3, "NPSI": 13, "NTHETA": 77},
        "large": {"NZETA": 32, "NPSI": 320, "NTHETA": 1024},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 flux surfaces; each walks the "
                      "toroidal planes and 256-point theta chunks with [8, 256] tiles (theta on the contiguous "
                      "last axis), accumulating sum J phi and sum J phi^2 per surface with row reductions; "
                      "one store of the two averages per block. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """phi [n_zeta, n_psi, n_theta], jac [n_psi, n_theta] (Shafranov-shifted circular geometry)."""
    s = META["sizes"][size]
    nz, npsi, nt = s["NZETA"], s["NPSI"], s["NTHETA"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = 0.1 + 0.8 * (torch.arange(npsi, dtype=torch.float64) + 0.5) / npsi            # minor radius / a
    theta = 2.0 * math.pi * torch.arange(nt, dtype=torch.float64) / nt
    eps = 0.33 * r[:, None]
    jac = r[:, None] * (1.0 + eps * torch.cos(theta)[None, :]) ** 2                    # ~ r R^2 / R0^2
    zonal = 0.5 * torch.sin(3.0 * math.pi * r) * torch.exp(-r)
    zeta = 2.0 * math.pi * torch.arange(nz, dtype=torch.float64) / nz
    turb = torch.zeros(nz, npsi, nt, dtype=torch.float64)
    for m, n in ((7, 3), (12, 5), (18, 8)):
        amp = 0.2 * torch.rand(npsi, generator=g, dtype=torch.float64)
        ph = 2.0 * math.pi * torch.rand(1, generator=g, dtype=torch.float64)
        turb += amp[None, :, None] * torch.cos(m * theta[None, None, :] - n * zeta[:, None, None] + ph)
    phi = zonal[None, :, None] + turb + 0.05 * torch.randn(nz, npsi, nt, generator=g, dtype=torch.float64)
    return phi.to(dt).to(device), jac.to(dt).to(device)


def reference(phi: torch.Tensor, jac: torch.Tensor) -> tuple:
    p, j = phi.double(), jac.double()
    den = phi.shape[0] * j.sum(1)
    m1 = (p * j[None]).sum((0, 2)) / den
    m2 = (p * p * j[None]).sum((0, 2)) / den
    rms = (m2 - m1 * m1).clamp(min=0.0).sqrt()
    return m1.to(phi.dtype), rms.to(phi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NZETA"] * s["NPSI"] * s["NTHETA"]
    return {"bytes": 4 * n + 4 * s["NPSI"] * s["NTHETA"] + 8 * s["NPSI"], "flops": 4 * n}
