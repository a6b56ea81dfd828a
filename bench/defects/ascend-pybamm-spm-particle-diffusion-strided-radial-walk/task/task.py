"""Finite-volume right-hand side of spherical particle diffusion (PyBaMM SPM / DFN particles).

Each particle of radius R_p is cut into NR equal radial cells (PyBaMM's Uniform1DSubMesh, edges
r_k = k dr, dr = R_p / NR, nodes at the cell centres). With the flux N = -D dc/dr on the edges,
    N_0 = 0                                   (symmetry at the centre)
    N_k = -D (c_k - c_{k-1}) / dr             (k = 1 .. NR-1, internal edges)
    N_NR = j / F                              (surface: -D dc/dr = j / F)
the conservative spherical divergence gives, for cell i,
    dc_i/dt = -3 (r_{i+1}^2 N_{i+1} - r_i^2 N_i) / (r_{i+1}^3 - r_i^3)
            = -3 ((i+1)^2 N_{i+1} - i^2 N_i) / (dr (3 i^2 + 3 i + 1)).
In the DFN every macroscale node x of the electrode owns one particle; a parameter sweep stacks the
particles of all sets, so c is [P, NR] (radial cells contiguous, PyBaMM's state ordering), j and D are
[P] (interfacial current density at the particle's node, the set's solid diffusivity).
"""
import torch

META = {
    "name": "spm_particle_diffusion_rhs",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 37, "NR": 20},
        "ragged": {"P": 53, "NR": 13},
        "large": {"P": 163840, "NR": 20},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over [64, next_power_of_2(NR)] tiles of "
                      "(particle, radial cell) with the radial axis contiguous; the neighbours c_{i-1} and "
                      "c_{i+1} are two more masked loads of the same rows shifted by one; centre and surface "
                      "fluxes selected with tl.where on the column index; no autotune.",
    "deterministic": True,
}

F = 96485.33212          # C mol^-1
CS_MAX = 33133.0         # mol m^-3, Chen2020 graphite
R_P = 5.86e-6            # m, Chen2020 negative particle radius
D_REF = 3.3e-14          # m^2 s^-1, Chen2020 graphite diffusivity


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """c [P, NR] (mol m^-3), j [P] (A m^-2), D [P] (m^2 s^-1), particle radius R_p (float, m)."""
    s = META["sizes"][size]
    P, NR = s["P"], s["NR"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = (torch.arange(NR, dtype=torch.float64) + 0.5) / NR
    sto = 0.1 + 0.7 * torch.rand(P, 1, generator=g, dtype=torch.float64)
    amp = 0.08 * (torch.rand(P, 1, generator=g, dtype=torch.float64) - 0.5)
    c = CS_MAX * (sto + amp * r[None, :] ** 2) + 5.0 * torch.randn(P, NR, generator=g, dtype=torch.float64)
    j = 2.0 * torch.randn(P, generator=g, dtype=torch.float64)
    D = D_REF * 10.0 ** (torch.rand(P, generator=g, dtype=torch.float64) - 0.5)
    return c.to(dt).to(device), j.to(dt).to(device), D.to(dt).to(device), R_P


def reference(c: torch.Tensor, j: torch.Tensor, D: torch.Tensor, r_p: float) -> torch.Tensor:
    P, NR = c.shape
    x = c.double()
    dr = r_p / NR
    flux = torch.zeros(P, NR + 1, dtype=torch.float64, device=c.device)
    flux[:, 1:NR] = -D.double()[:, None] * (x[:, 1:] - x[:, :-1]) / dr
    flux[:, NR] = j.double() / F
    k = torch.arange(NR + 1, dtype=torch.float64, device=c.device)
    area = k ** 2 * flux
    i = k[:NR]
    dcdt = -3.0 * (area[:, 1:] - area[:, :-1]) / (dr * (3.0 * i * i + 3.0 * i + 1.0))
    return dcdt.to(c.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["NR"]
    return {"bytes": 8 * n + 8 * s["P"], "flops": 10 * n}
