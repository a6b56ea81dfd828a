"""Forward and reverse rate constants of an elementary-reaction mechanism over many reactor cells.

Cantera's ArrheniusRate (evalFromStruct) and pyJac's rate-constant kernels evaluate, for every cell c
and reaction r of a Chemkin-style mechanism (GRI-Mech 3.0: 325 reactions),
    ln kf[c, r] = ln A[r] + beta[r] * ln T[c] - Ta[r] / T[c]         (Ta = Ea / R, kelvin)
    kf[c, r]    = exp(ln kf[c, r])
    kr[c, r]    = reversible[r] * exp(ln kf[c, r] - ln Kc[c, r])    (Cantera's ropr = ropf * rkcn)
ln Kc comes from the species Gibbs energies (NASA polynomials) of the same cell; irreversible
reactions have reversible = 0 and kr = 0. Inputs: T [cells] fp32, arrhenius [3, NR] fp32 rows
(ln A, beta, Ta), log_kc [cells, NR] fp32, reversible [NR] fp32. Returns (kf, kr), both [cells, NR] fp32.
"""
import torch

META = {
    "name": "arrhenius_rate_constants",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"cells": 12, "NR": 325},
        "ragged": {"cells": 7, "NR": 29},
        "large": {"cells": 65536, "NR": 325},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 cells x the whole reaction "
                      "row (BR = next_power_of_2(NR)): ln T and 1/T per cell, the Arrhenius parameters as "
                      "three contiguous rows, one exp for kf and one for kr, contiguous stores; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """T [cells] (300-3000 K), arrhenius [3, NR] (ln A, beta, Ta), log_kc [cells, NR], reversible [NR]."""
    s = META["sizes"][size]
    cells, nr = s["cells"], s["NR"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T = 300.0 + 2700.0 * torch.rand(cells, generator=g)
    log_a = 20.0 + 12.0 * torch.rand(nr, generator=g)          # A from ~5e8 to ~8e13 (cm, mol, s)
    beta = -1.5 + 4.0 * torch.rand(nr, generator=g)
    ta = 25000.0 * torch.rand(nr, generator=g) ** 2             # many barrier-less reactions
    arrhenius = torch.stack([log_a, beta, ta])
    log_kc = 50.0 * torch.rand(cells, nr, generator=g) - 25.0
    reversible = (torch.rand(nr, generator=g) < 0.85).float()
    return (T.to(dt).to(device), arrhenius.to(dt).to(device), log_kc.to(dt).to(device),
            reversible.to(dt).to(device))


def reference(T: torch.Tensor, arrhenius: torch.Tensor, log_kc: torch.Tensor,
              reversible: torch.Tensor) -> tuple:
    t = T.double()[:, None]
    a = arrhenius.double()
    ln_kf = a[0][None, :] + a[1][None, :] * torch.log(t) - a[2][None, :] / t
    kf = torch.exp(ln_kf)
    kr = reversible.double()[None, :] * torch.exp(ln_kf - log_kc.double())
    return kf.to(T.dtype), kr.to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells, nr = s["cells"], s["NR"]
    return {"bytes": 4 * cells + 16 * nr + 12 * cells * nr, "flops": 8 * cells * nr}
