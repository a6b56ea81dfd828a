"""Photoelectric macroscopic cross section and step limit of photon tracks from tabulated Livermore data.

Celeritas' LivermorePE / Geant4's G4LivermorePhotoElectricModel keep, per element, the total
photoelectric cross section sigma_Z(E) tabulated on a nonuniform energy grid (EPICS2014, the grid point
repeated at every absorption edge so that the cross section jumps there). For each photon track in
material m the along-step code needs
    Sigma(E) = sum_{el in m} n_el * sigma_el(E)          (1/mm; n_el in atoms per barn*mm)
where sigma_el(E) is linearly interpolated in the bin [E_i, E_{i+1}] with i the last grid point <= E
(E clamped to the table range), and the physics step limit s = n_mfp / Sigma for the track's remaining
number of mean free paths n_mfp. Returns (Sigma [N] fp32, s [N] fp32).
"""
import math

import torch

META = {
    "name": "livermore_pe_macro_xs",
    "level": 2,
    "category": "interpolation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300},
        "ragged": {"N": 777},
        "large": {"N": 1048576},
    },
    "baseline_notes": "One program per 128 tracks; per element slot of the track's material a branch-free "
                      "binary search over the element's padded 1024-point energy grid (10 gathered probes), "
                      "then two gathers each of grid and cross section for the linear interpolation; "
                      "Sigma accumulated in registers, n_mfp / Sigma stored. 4 warps, no autotune.",
    "deterministic": True,
}
G = 1024         # padded table length (grid points per element, + inf past the element's own count)
MAX_EL = 3       # elements per material
# (Z, density g/cm3, molar mass g/mol, [(element Z, atoms per formula unit)])
ELEMENTS = [1, 6, 7, 8, 14, 18, 26, 29, 30, 74, 82]
MATERIALS = [
    ("PbWO4", 8.28, 455.04, [(82, 1), (74, 1), (8, 4)]),
    ("lAr", 1.396, 39.948, [(18, 1)]),
    ("Si", 2.33, 28.086, [(14, 1)]),
    ("Air", 1.205e-3, 28.97, [(7, 1.562), (8, 0.42), (18, 0.0093)]),
    ("Polystyrene", 1.032, 104.15, [(6, 8), (1, 8)]),
    ("Brass", 8.53, 64.0, [(29, 0.7), (30, 0.3)]),
    ("Fe", 7.874, 55.845, [(26, 1)]),
]
MATERIAL_SHARE = [0.45, 0.15, 0.10, 0.05, 0.10, 0.10, 0.05]


def _element_table(z: int, g: torch.Generator) -> tuple:
    """A Livermore-like table: log-spaced points from 1 eV to 100 GeV, K and L edges repeated."""
    n_pts = 420 + int(7.0 * z) + int(torch.randint(0, 40, (1,), generator=g))
    n_pts = min(n_pts, G) - 4
    e = torch.logspace(-6.0, 5.0, n_pts, dtype=torch.float64)          # MeV
    e_k = 13.6e-6 * (z - 1 if z > 1 else 1) ** 2                        # K edge, MeV
    e_l = e_k / 6.0
    edges = torch.tensor([e_l, e_l, e_k, e_k], dtype=torch.float64)
    e = torch.sort(torch.cat([e, edges])).values
    sigma = 6.2e-9 * z ** 4.5 * e.pow(-2.9) / (1.0 + e.pow(1.9))       # barn, smooth power law
    jump = torch.ones_like(e)
    above_l = torch.arange(len(e)) > int(torch.nonzero(e == e_l)[0])    # first copy of an edge: below it
    above_k = torch.arange(len(e)) > int(torch.nonzero(e == e_k)[0])
    jump = jump * torch.where(above_l, 3.0, 1.0) * torch.where(above_k, 6.0, 1.0)
    sigma = sigma * jump / 18.0
    sigma = sigma.clamp(max=1.0e9)
    return e, sigma


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """energy [N] (MeV), material [N] int32, n_mfp [N], grid [E, G] (MeV, +inf padded), xs [E, G] (barn),
    n_pts [E] int32, mat_el [M, MAX_EL] int32 (-1 padded), mat_dens [M, MAX_EL] (atoms per barn*mm)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tables = torch.Generator().manual_seed(1234)                      # the physics tables do not vary by seed
    n_el = len(ELEMENTS)
    grid = torch.full((n_el, G), float("inf"), dtype=torch.float64)
    xs = torch.zeros(n_el, G, dtype=torch.float64)
    n_pts = torch.zeros(n_el, dtype=torch.int32)
    for row, z in enumerate(ELEMENTS):
        e, s = _element_table(z, tables)
        grid[row, :len(e)] = e
        xs[row, :len(e)] = s
        n_pts[row] = len(e)
    mat_el = torch.full((len(MATERIALS), MAX_EL), -1, dtype=torch.int32)
    mat_dens = torch.zeros(len(MATERIALS), MAX_EL, dtype=torch.float64)
    for m, (_, rho, molar, parts) in enumerate(MATERIALS):
        units = rho / molar * 6.02214076e23 * 1e-25                     # formula units per barn*mm
        for j, (z, count) in enumerate(parts):
            mat_el[m, j] = ELEMENTS.index(z)
            mat_dens[m, j] = units * count
    material = torch.multinomial(torch.tensor(MATERIAL_SHARE), n, replacement=True, generator=g).to(torch.int32)
    energy = torch.exp(torch.empty(n).uniform_(math.log(2e-3), math.log(20.0), generator=g))
    n_mfp = -torch.log(1.0 - torch.rand(n, generator=g))
    return (energy.to(device=device, dtype=dt), material.to(device), n_mfp.to(device=device, dtype=dt),
            grid.to(device=device, dtype=dt), xs.to(device=device, dtype=dt), n_pts.to(device),
            mat_el.to(device), mat_dens.to(device=device, dtype=dt))


def reference(energy, material, n_mfp, grid, xs, n_pts, mat_el, mat_dens) -> tuple:
    e = energy.double()
    sigma = torch.zeros_like(e)
    mat = material.long()
    for el in range(grid.shape[0]):
        npt = int(n_pts[el])
        g_el = grid[el, :npt].double()
        x_el = xs[el, :npt].double()
        for j in range(mat_el.shape[1]):
            sel = torch.nonzero(mat_el[mat, j] == el).flatten()
            if sel.numel() == 0:
                continue
            ec = e[sel].clamp(min=float(g_el[0]), max=float(g_el[-1]))
            i = (torch.searchsorted(g_el, ec, right=True) - 1).clamp(0, npt - 2)
            e0, e1 = g_el[i], g_el[i + 1]
            val = x_el[i] + (ec - e0) / (e1 - e0) * (x_el[i + 1] - x_el[i])
            sigma[sel] += mat_dens[mat[sel], j].double() * val
    step = n_mfp.double() / sigma
    return sigma.to(energy.dtype), step.to(energy.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 20 * n, "flops": 8 * MAX_EL * n}
