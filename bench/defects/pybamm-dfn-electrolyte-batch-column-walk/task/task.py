"""One explicit finite-volume step of the Doyle-Fuller-Newman electrolyte concentration with the
Butler-Volmer source, over a PyBaMM BatchStudy (many parameter sets solved side by side).

Each batch member b holds the electrolyte concentration c_e[b, :] on the through-cell mesh of
Nx = n_neg + n_sep + n_pos uniform nodes (spacing dx); per node x the host gives the porosity
eps[x], the effective diffusivity D_eff[x] = D_e eps^1.5 (Bruggeman), the specific interfacial area
a[x] and the reference exchange-current density j0_ref[x] (both 0 in the separator); per batch
member the swept reaction-rate scale k_b. With particle surface stoichiometry cs[b, x] and reaction
overpotential eta[b, x] (PyBaMM's symmetric Butler-Volmer, alpha = 0.5, T = 298.15 K):

    j0  = k_b j0_ref[x] sqrt(c_e / c_e,ref) sqrt(cs) sqrt(1 - cs)
    j   = 2 j0 sinh(F eta / (2 R T))
    c_e' = c_e + dt / eps[x] * ( [D+ (c_e[x+1] - c_e[x]) - D- (c_e[x] - c_e[x-1])] / dx^2
                                 + (1 - t+) a[x] j / F )

with face diffusivities D+- the mean of the two nodes' D_eff and zero flux at both current
collectors. Returns (c_e' [B, Nx] fp32, j [B, Nx] fp32 interfacial current density, A/m^2).
"""
import torch

META = {
    "name": "dfn_electrolyte_step",
    "level": 2,
    "category": "battery-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 8, "n_neg": 10, "n_sep": 6, "n_pos": 9},
        "ragged": {"B": 5, "n_neg": 13, "n_sep": 7, "n_pos": 11},
        "large": {"B": 32768, "n_neg": 40, "n_sep": 20, "n_pos": 40},
    },
    "baseline_notes": "Grid over blocks of 8 batch members; each program holds a [8, next_pow2(Nx)] tile with the "
                      "mesh axis contiguous, loads c_e at x-1, x, x+1 (masked at the collectors), cs and eta, "
                      "the per-node coefficients as one row broadcast over the batch, computes Butler-Volmer and "
                      "the flux divergence in fp32 and stores c_e' and j; 4 warps, no autotune.",
    "deterministic": True,
}
F_CONST = 96485.33212
RT_OVER_F = 8.314462618 * 298.15 / F_CONST
T_PLUS = 0.2594
CE_REF = 1000.0
L_NEG, L_SEP, L_POS = 85.2e-6, 12e-6, 75.6e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """c_e, cs, eta [B, Nx]; eps, d_eff, a, j0_ref [Nx]; k_scale [B]; dt and dx (floats)."""
    s = META["sizes"][size]
    b, nn, ns, npos = s["B"], s["n_neg"], s["n_sep"], s["n_pos"]
    nx = nn + ns + npos
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    dx = (L_NEG + L_SEP + L_POS) / nx
    region = torch.cat([torch.zeros(nn), torch.ones(ns), 2 * torch.ones(npos)]).long()
    eps = torch.tensor([0.25, 0.47, 0.335], dtype=torch.float64)[region]
    d_eff = 1.7e-10 * eps ** 1.5
    a = torch.tensor([3 * 0.75 / 5.86e-6, 0.0, 3 * 0.665 / 5.22e-6], dtype=torch.float64)[region]
    j0_ref = torch.tensor([2.0, 0.0, 4.0], dtype=torch.float64)[region]
    xs = torch.linspace(0.0, 1.0, nx, dtype=torch.float64)
    ce = CE_REF * (1.0 + 0.3 * (0.5 - xs)[None, :] * torch.rand(b, 1, generator=g, dtype=torch.float64)) \
        + 1.0 * torch.randn(b, nx, generator=g, dtype=torch.float64)
    cs = torch.where(region == 0, 0.55, 0.6)[None, :] + 0.2 * (torch.rand(b, nx, generator=g, dtype=torch.float64) - 0.5)
    eta = torch.where(region == 0, 0.02, -0.03)[None, :] + 0.01 * torch.randn(b, nx, generator=g, dtype=torch.float64)
    k_scale = 0.5 + 1.5 * torch.rand(b, generator=g, dtype=torch.float64)
    t = [ce, cs, eta, eps, d_eff, a, j0_ref, k_scale]
    return (*[x.to(device=device, dtype=dt_) for x in t], 0.01, dx)


def reference(ce, cs, eta, eps, d_eff, a, j0_ref, k_scale, dt, dx) -> tuple:
    c, s, h, e, d, av, j0r, k = (x.double() for x in (ce, cs, eta, eps, d_eff, a, j0_ref, k_scale))
    j0 = k[:, None] * j0r[None, :] * torch.sqrt(c / CE_REF) * torch.sqrt(s) * torch.sqrt(1.0 - s)
    j = 2.0 * j0 * torch.sinh(0.5 * h / RT_OVER_F)
    d_face = 0.5 * (d[1:] + d[:-1])
    flux = d_face[None, :] * (c[:, 1:] - c[:, :-1]) / (dx * dx)
    div = torch.zeros_like(c)
    div[:, :-1] += flux
    div[:, 1:] -= flux
    c_new = c + dt / e[None, :] * (div + (1.0 - T_PLUS) * av[None, :] * j / F_CONST)
    return c_new.to(ce.dtype), j.to(ce.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * (s["n_neg"] + s["n_sep"] + s["n_pos"])
    return {"bytes": 4 * 5 * n, "flops": 40 * n}
