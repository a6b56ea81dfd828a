"""Butler-Volmer interfacial current density of a DFN negative electrode over a parameter sweep (PyBaMM).

PyBaMM's DFN evaluates, at every macroscale node x of the electrode, the symmetric Butler-Volmer law
(`pybamm.kinetics.SymmetricButlerVolmer`, ne = 1) with the Chen2020 (LG M50) graphite functions:
    sto   = cs_surf / cs_max                                     (cs_max = 33133 mol m^-3)
    U     = 1.9793 exp(-39.3631 sto) + 0.2482 - 0.0909 tanh(29.8538 (sto - 0.1234))
            - 0.04478 tanh(14.9159 (sto - 0.2769)) - 0.0205 tanh(30.4444 (sto - 0.6103))
    j0    = k_ref exp(E_r / R (1 / T_ref - 1 / T)) sqrt(ce) sqrt(cs_surf) sqrt(cs_max - cs_surf)
    eta   = delta_phi - U                                        (delta_phi = phi_s - phi_e)
    j     = 2 j0 sinh(F eta / (2 R T))                           [A m^-2]
A parameter sweep (PyBaMM BatchStudy over temperature and the exchange-current coefficient) carries one
k_ref and one T per parameter set s; the state arrays are [S, N] (N nodes per set, row-major).
"""
import math

import torch

META = {
    "name": "dfn_butler_volmer_sweep",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 4, "N": 100},
        "ragged": {"S": 5, "N": 37},
        "large": {"S": 8192, "N": 100},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over [8, next_power_of_2(N)] tiles of "
                      "(parameter set, node); k_ref and T are loaded once per row as an [8] vector and the "
                      "Arrhenius factor and F/(2RT) computed per row and broadcast; tanh and sinh through exp; "
                      "no autotune.",
    "deterministic": True,
}

CS_MAX = 33133.0          # mol m^-3, Chen2020 graphite
F = 96485.33212           # C mol^-1
R_GAS = 8.314462618       # J mol^-1 K^-1
E_R = 35000.0             # J mol^-1, activation energy of the graphite reaction
T_REF = 298.15            # K
K_REF = 6.48e-7           # A m^-2 (m^3 mol^-1)^1.5, Chen2020


def graphite_ocp(sto: torch.Tensor) -> torch.Tensor:
    return (1.9793 * torch.exp(-39.3631 * sto) + 0.2482
            - 0.0909 * torch.tanh(29.8538 * (sto - 0.1234))
            - 0.04478 * torch.tanh(14.9159 * (sto - 0.2769))
            - 0.0205 * torch.tanh(30.4444 * (sto - 0.6103)))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cs_surf, ce, delta_phi [S, N]; k_ref, T [S] (one value per parameter set)."""
    s = META["sizes"][size]
    S, N = s["S"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sto = 0.05 + 0.9 * torch.rand(S, N, generator=g, dtype=torch.float64)
    cs = sto * CS_MAX
    ce = (1000.0 * (1.0 + 0.25 * torch.randn(S, N, generator=g, dtype=torch.float64))).clamp(200.0, 2500.0)
    eta = 0.03 * torch.randn(S, N, generator=g, dtype=torch.float64)
    delta_phi = graphite_ocp(sto) + eta
    k_ref = K_REF * 10.0 ** (torch.rand(S, generator=g, dtype=torch.float64) - 0.5)
    temp = 263.15 + 55.0 * torch.rand(S, generator=g, dtype=torch.float64)
    return tuple(t.to(dt).to(device) for t in (cs, ce, delta_phi, k_ref, temp))


def reference(cs: torch.Tensor, ce: torch.Tensor, delta_phi: torch.Tensor, k_ref: torch.Tensor,
              temp: torch.Tensor) -> torch.Tensor:
    c, e, dp = cs.double(), ce.double(), delta_phi.double()
    T = temp.double()[:, None]
    j0 = (k_ref.double()[:, None] * torch.exp(E_R / R_GAS * (1.0 / T_REF - 1.0 / T))
          * torch.sqrt(e) * torch.sqrt(c) * torch.sqrt(CS_MAX - c))
    eta = dp - graphite_ocp(c / CS_MAX)
    return (2.0 * j0 * torch.sinh(F * eta / (2.0 * R_GAS * T))).to(cs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["N"]
    return {"bytes": 16 * n + 8 * s["S"], "flops": 60 * n}
