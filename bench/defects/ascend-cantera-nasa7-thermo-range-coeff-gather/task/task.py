"""Species standard-state thermodynamics from two-range NASA 7-coefficient polynomials, per cell.

Cantera's NasaPoly2::updateProperties (and pyJac's cp / h / s kernels) evaluate, for every cell c and
species k, the coefficient set of the temperature range T[c] falls in (the high range when
T[c] > T_mid[k], else the low range) and
    cp/R  = a0 + a1 T + a2 T^2 + a3 T^3 + a4 T^4
    h/RT  = a0 + a1 T/2 + a2 T^2/3 + a3 T^3/4 + a4 T^4/5 + a5/T
    s/R   = a0 ln T + a1 T + a2 T^2/2 + a3 T^3/3 + a4 T^4/4 + a6
(these feed the equilibrium constants Kc and the energy equation). Inputs: T [cells] fp32,
coeffs [2, 7, KSP] fp32 (set 0 = low range, set 1 = high range, species on the last axis as pyJac
lays them out), t_mid [KSP] fp32. Returns (cp_R, h_RT, s_R), each [cells, KSP] fp32.
"""
import torch

META = {
    "name": "nasa7_species_thermo",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"cells": 40, "KSP": 53},
        "ragged": {"cells": 37, "KSP": 11},
        "large": {"cells": 262144, "KSP": 53},
    },
    "baseline_notes": "40 programs (the A2's vector cores) load both coefficient sets as 14 contiguous "
                      "species rows once, then loop over blocks of 32 cells x all species: T > T_mid picks "
                      "the set per element with tl.where on the values, three Horner polynomials, ln T and "
                      "1/T per cell, three contiguous stores; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """T [cells] (300-3000 K), coeffs [2, 7, KSP] in realistic NASA magnitudes, t_mid [KSP]."""
    s = META["sizes"][size]
    cells, ksp = s["cells"], s["KSP"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T = 300.0 + 2700.0 * torch.rand(cells, generator=g)

    def u(lo, hi):
        return lo + (hi - lo) * torch.rand(ksp, generator=g)

    low = torch.stack([u(2.5, 5.0), u(-5e-3, 1e-2), u(-1e-5, 2e-5), u(-1e-8, 1e-8), u(-4e-12, 4e-12),
                       u(-5e4, 3e4), u(-5.0, 20.0)])
    high = torch.stack([u(2.5, 8.0), u(-1e-3, 5e-3), u(-2e-6, 1e-6), u(-1e-10, 3e-10), u(-2e-14, 1e-14),
                        u(-5e4, 3e4), u(-20.0, 10.0)])
    coeffs = torch.stack([low, high])
    t_mid = torch.full((ksp,), 1000.0)
    odd = torch.rand(ksp, generator=g) < 0.1                         # a few species with other T_mid
    t_mid[odd] = 1200.0 + 200.0 * torch.rand(int(odd.sum()), generator=g)
    return T.to(dt).to(device), coeffs.to(dt).to(device), t_mid.to(dt).to(device)


def reference(T: torch.Tensor, coeffs: torch.Tensor, t_mid: torch.Tensor) -> tuple:
    t = T.double()[:, None]
    hot = T[:, None] > t_mid[None, :]
    c = torch.where(hot[None, :, :], coeffs.double()[1][:, None, :], coeffs.double()[0][:, None, :])
    a0, a1, a2, a3, a4, a5, a6 = c
    cp = a0 + t * (a1 + t * (a2 + t * (a3 + t * a4)))
    h = a0 + t * (a1 / 2 + t * (a2 / 3 + t * (a3 / 4 + t * a4 / 5))) + a5 / t
    s = a0 * torch.log(t) + t * (a1 + t * (a2 / 2 + t * (a3 / 3 + t * a4 / 4))) + a6
    return cp.to(T.dtype), h.to(T.dtype), s.to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells, ksp = s["cells"], s["KSP"]
    return {"bytes": 4 * cells + 60 * ksp + 12 * cells * ksp, "flops": 30 * cells * ksp}
