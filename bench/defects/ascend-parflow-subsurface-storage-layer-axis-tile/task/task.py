"""Column-integrated subsurface water storage of a ParFlow run (pftools calculate_subsurface_storage, summed over z).

For every cell of an nz x ny x nx ParFlow grid the water held in the subsurface is the incompressible pore
water plus the compressible (specific-storage) part,
    storage = mask * dx * dy * dz_k * (porosity * sat + pressure * sat * specific_storage),
with dz_k the layer thickness (dz times ParFlow's variable-dz multiplier) and the domain mask zeroing
inactive cells (mask == 0). The water-balance tools sum it over the layers, giving the storage of each
land column in m^3, the map that is differenced between output times. Returns fp32 [ny, nx].
"""
import torch

META = {
    "name": "parflow_column_subsurface_storage",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"nz": 5, "ny": 6, "nx": 9},
        "ragged": {"nz": 5, "ny": 13, "nx": 17},
        "large": {"nz": 5, "ny": 1888, "nx": 3342},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 2048 land columns of the "
                      "flattened (y, x) plane; each program walks the nz layers with contiguous [2048] loads "
                      "of pressure, saturation, porosity, specific storage and mask, accumulating the column "
                      "sum in registers, one store per block; no autotune.",
    "deterministic": True,
}
# ParFlow-CONUS 1.0 layer thicknesses (bottom to top, m) with dz = 1: 100 m of aquifer under a 2 m soil column.
CONUS1_DZ = [100.0, 1.0, 0.6, 0.3, 0.1]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pressure, saturation, porosity, specific_storage, mask [nz, ny, nx]; dz_layers [nz] (m); dx, dy (m)."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dzl = torch.tensor((CONUS1_DZ * ((nz + 4) // 5))[-nz:], dtype=torch.float64)
    zc = torch.cumsum(dzl, 0) - 0.5 * dzl
    depth = float(dzl.sum())
    wt = depth - 0.3 - 4.0 * torch.rand(ny, nx, generator=g, dtype=torch.float64)   # water table depth 0.3-4.3 m
    pressure = wt[None] - zc[:, None, None] + 0.02 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64)
    alpha, n = 1.0, 2.0                                   # van Genuchten saturation, sres 0.1, ssat 1
    ah = alpha * (-pressure).clamp_min(0.0)
    se = (1.0 + ah ** n) ** (-(1.0 - 1.0 / n))
    sat = 0.1 + 0.9 * se
    porosity = 0.25 + 0.2 * torch.rand(nz, ny, nx, generator=g, dtype=torch.float64)
    specific_storage = torch.full((nz, ny, nx), 1e-4, dtype=torch.float64) \
        * (1.0 + torch.rand(nz, ny, nx, generator=g, dtype=torch.float64))
    land = (torch.rand(ny, nx, generator=g) > 0.2).to(torch.float64)   # ~20% of the box outside the domain
    mask = land[None].expand(nz, ny, nx).clone()
    to = lambda t: t.to(dt).to(device)
    return (to(pressure), to(sat), to(porosity), to(specific_storage), to(mask), to(dzl), 1000.0, 1000.0)


def reference(pressure, sat, porosity, specific_storage, mask, dz_layers, dx, dy) -> torch.Tensor:
    p, s, phi, ss, mk = (t.double() for t in (pressure, sat, porosity, specific_storage, mask))
    dz = dz_layers.double()[:, None, None]
    cell = dx * dy * dz * (phi * s + p * s * ss)
    cell = torch.where(mk != 0, cell, torch.zeros_like(cell))
    return cell.sum(0).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nz"] * s["ny"] * s["nx"]
    return {"bytes": 4 * 5 * n + 4 * s["ny"] * s["nx"] + 4 * s["nz"], "flops": 6 * n}
