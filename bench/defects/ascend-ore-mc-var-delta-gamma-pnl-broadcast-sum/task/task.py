"""Monte Carlo delta-gamma P&L per scenario and desk for a VaR aggregation (ORE parametric VaR, MonteCarlo method).

Each scenario s draws risk-factor shocks dx[s, f]; desk d's sensitivities are delta[d, f] and the diagonal
of its gamma matrix gamma[d, f]. The P&L of desk d in scenario s is
  pnl[s, d] = sum_f delta[d, f] * dx[s, f] + 0.5 * sum_f gamma[d, f] * dx[s, f] ** 2
(the desk-level VaR / ES are then quantiles of pnl[:, d] over the scenarios).
"""
import torch

META = {
    "name": "mc_var_delta_gamma_pnl",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 96, "F": 40, "D": 24},
        "ragged": {"S": 203, "F": 77, "D": 37},
        "large": {"S": 65536, "F": 512, "D": 256},
    },
    "baseline_notes": "Persistent grid of 40 programs over [128, 128] output tiles; the factor loop moves [128, 64] "
                      "shock tiles and [128, 64] sensitivity tiles and accumulates two tl.dot products (shocks by "
                      "delta^T, squared shocks by gamma^T / 2) in fp32 on the cube unit.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """shocks [S, F] (factor moves, ~1 %), delta [D, F] and gamma [D, F] (P&L per unit move, per unit^2)."""
    s = META["sizes"][size]
    S, F, D = s["S"], s["F"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shocks = torch.randn(S, F, generator=g) * 0.01
    delta = torch.randn(D, F, generator=g) * 100.0
    gamma = torch.randn(D, F, generator=g) * 2000.0
    return shocks.to(dt).to(device), delta.to(dt).to(device), gamma.to(dt).to(device)


def reference(shocks: torch.Tensor, delta: torch.Tensor, gamma: torch.Tensor) -> torch.Tensor:
    x = shocks.double()
    pnl = x @ delta.double().T + 0.5 * (x * x) @ gamma.double().T
    return pnl.to(shocks.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, F, D = s["S"], s["F"], s["D"]
    return {"bytes": 4 * (S * F + 2 * D * F + S * D), "flops": 4 * S * F * D + 2 * S * F}
