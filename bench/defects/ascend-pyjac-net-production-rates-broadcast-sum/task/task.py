"""Species mass-fraction source terms from rates of progress and the net stoichiometric matrix.

The last step of a chemistry source evaluation (pyJac's wdot kernels, Cantera's
Kinetics::getNetProductionRates followed by the reacting-flow source term) for many independent cells:
    wdot[c, k]   = sum_r nu[r, k] * q[c, r]              (net molar production rate, kmol/m^3/s)
    dYdt[c, k]   = W[k] * wdot[c, k] / rho[c]            (mass-fraction source of species k)
nu = nu'' - nu' is the dense net stoichiometric matrix [NR, KSP] of an elementary mechanism
(GRI-Mech 3.0: 325 reactions x 53 species, integer entries, at most ~6 nonzeros per reaction).
Inputs: q [cells, NR] fp32 net rates of progress, nu [NR, KSP] fp32, mol_weight [KSP] fp32, rho [cells]
fp32. Returns dYdt [cells, KSP] fp32.
"""
import torch

META = {
    "name": "net_production_source",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"cells": 40, "NR": 325, "KSP": 53},
        "ragged": {"cells": 37, "NR": 29, "KSP": 11},
        "large": {"cells": 65536, "NR": 325, "KSP": 53},
    },
    "baseline_notes": "40 programs loop over blocks of 64 cells; each block multiplies its [64, 32] tiles of "
                      "q by [32, 64] tiles of nu with tl.dot (input_precision='ieee', fp32 accumulator) over "
                      "the reaction axis, then scales by W[k] / rho[c] and stores the [64, KSP] block; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [cells, NR], nu [NR, KSP] (2 reactants + 2 products per reaction), mol_weight [KSP], rho [cells]."""
    s = META["sizes"][size]
    cells, nr, ksp = s["cells"], s["NR"], s["KSP"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nu = torch.zeros(nr, ksp)
    for r in range(nr):
        picks = torch.randperm(ksp, generator=g)[:4]
        coef = torch.where(torch.rand(4, generator=g) < 0.15, 2.0, 1.0)
        nu[r, picks[:2]] -= coef[:2]
        nu[r, picks[2:]] += coef[2:]
    q = torch.randn(cells, nr, generator=g) * 10.0 ** (2.0 * torch.rand(cells, nr, generator=g) - 1.0)
    mol_weight = 1.0 + 43.0 * torch.rand(ksp, generator=g)       # 1 (H) to 44 (CO2) kg/kmol
    rho = 0.1 + 1.1 * torch.rand(cells, generator=g)               # kg/m^3 over flame temperatures
    return (q.to(dt).to(device), nu.to(dt).to(device), mol_weight.to(dt).to(device),
            rho.to(dt).to(device))


def reference(q: torch.Tensor, nu: torch.Tensor, mol_weight: torch.Tensor, rho: torch.Tensor) -> torch.Tensor:
    wdot = q.double() @ nu.double()
    return (wdot * mol_weight.double()[None, :] / rho.double()[:, None]).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells, nr, ksp = s["cells"], s["NR"], s["KSP"]
    return {"bytes": 4 * (cells * nr + nr * ksp + ksp + cells + cells * ksp),
            "flops": 2 * cells * nr * ksp + 2 * cells * ksp}
