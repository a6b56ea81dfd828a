"""Electrolyte concentration RHS of the PyBaMM DFN across negative electrode, separator and positive electrode.

On the macroscale finite-volume mesh of the cell (n_n + n_s + n_p nodes, region-uniform widths dx_i and
porosities eps_i, PyBaMM's default 20 + 20 + 20), conservation of Li+ in the electrolyte reads
    eps_i dce_i/dt = -(N_{i+1/2} - N_{i-1/2}) / dx_i + (1 - t+) aj_i / F
with the diffusive flux on internal edges (Bruggeman b = 1.5, edge value the arithmetic mean of the nodes,
as PyBaMM's default edge shift), the migration part t+ i_e / F folded into the source by div i_e = a j,
    D_eff(c, eps) = eps^1.5 D_e(c),  D_e(c) = 8.794e-11 (c/1000)^2 - 3.972e-10 (c/1000) + 4.862e-10  (Chen2020)
    N_{i+1/2} = -(D_eff,i + D_eff,i+1) / 2 * (ce_{i+1} - ce_i) / ((dx_i + dx_{i+1}) / 2)
and no flux through the current collectors (N at both ends = 0). A BatchStudy of B experiments (C-rates)
evaluates it for every experiment's state: ce and aj (volumetric reaction current a j, 0 in the separator)
are [B, Nx]; eps and dx [Nx + 2] are the shared mesh arrays with one ghost cell at each current collector
(a copy of the boundary cell, so node i sits at index i + 1); t+ is a float. Returns dce/dt [B, Nx].
"""
import torch

META = {
    "name": "dfn_electrolyte_rhs_batch",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "NN": 20, "NS": 20, "NP": 20},
        "ragged": {"B": 5, "NN": 7, "NS": 5, "NP": 9},
        "large": {"B": 1024, "NN": 20, "NS": 20, "NP": 20},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) loop over [16, next_power_of_2(Nx)] tiles "
                      "of (experiment, node); neighbours ce_{i-1}, ce_{i+1} are masked loads shifted by one on "
                      "the contiguous node axis, eps and dx read once per program from the ghost-padded mesh; collector edges zeroed with tl.where; "
                      "no autotune.",
    "deterministic": True,
}

F = 96485.33212
T_PLUS = 0.2594                          # Chen2020 cation transference number
L = (85.2e-6, 12e-6, 75.6e-6)            # m, Chen2020 negative electrode, separator, positive electrode
EPS = (0.25, 0.47, 0.335)                # electrolyte volume fractions
I_1C = 5.0 / 0.1027                      # A m^-2: 5 Ah over the 0.1027 m^2 electrode area


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ce [B, Nx] (mol m^-3), aj [B, Nx] (A m^-3), eps [Nx + 2], dx [Nx + 2] (m, ghost-padded), t_plus (float)."""
    s = META["sizes"][size]
    B, counts = s["B"], (s["NN"], s["NS"], s["NP"])
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    eps = torch.cat([torch.full((n,), e, dtype=torch.float64) for n, e in zip(counts, EPS)])
    dx = torch.cat([torch.full((n,), l / n, dtype=torch.float64) for n, l in zip(counts, L)])
    x = (torch.cumsum(dx, 0) - 0.5 * dx) / sum(L)
    crate = 0.1 + 2.9 * torch.rand(B, 1, generator=g, dtype=torch.float64)
    ce = 1000.0 * (1.0 + 0.3 * crate / 3.0 * (0.5 - x)[None, :]) \
        + 2.0 * torch.randn(B, x.numel(), generator=g, dtype=torch.float64)
    nn, ns, np_ = counts
    shape = 1.0 + 0.2 * torch.randn(B, x.numel(), generator=g, dtype=torch.float64)
    aj = torch.zeros(B, x.numel(), dtype=torch.float64)
    aj[:, :nn] = crate * I_1C / L[0] * shape[:, :nn]
    aj[:, nn + ns:] = -crate * I_1C / L[2] * shape[:, nn + ns:]
    eps_g = torch.cat([eps[:1], eps, eps[-1:]])
    dx_g = torch.cat([dx[:1], dx, dx[-1:]])
    return ce.to(dt).to(device), aj.to(dt).to(device), eps_g.to(dt).to(device), dx_g.to(dt).to(device), T_PLUS


def reference(ce: torch.Tensor, aj: torch.Tensor, eps: torch.Tensor, dx: torch.Tensor,
              t_plus: float) -> torch.Tensor:
    c, a, e, h = ce.double(), aj.double(), eps.double()[1:-1], dx.double()[1:-1]
    cs = c / 1000.0
    deff = e ** 1.5 * (8.794e-11 * cs * cs - 3.972e-10 * cs + 4.862e-10)
    flux = torch.zeros(c.shape[0], c.shape[1] + 1, dtype=torch.float64, device=ce.device)
    flux[:, 1:-1] = -0.5 * (deff[:, 1:] + deff[:, :-1]) * (c[:, 1:] - c[:, :-1]) / (0.5 * (h[1:] + h[:-1]))
    rhs = -(flux[:, 1:] - flux[:, :-1]) / h + (1.0 - t_plus) * a / F
    return (rhs / e).to(ce.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * (s["NN"] + s["NS"] + s["NP"])
    return {"bytes": 12 * n, "flops": 30 * n}
