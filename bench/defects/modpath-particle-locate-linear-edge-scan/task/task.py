"""Particle location and pore velocity on a MODFLOW structured grid (MODPATH 7 / flopy).

Particles are given in model coordinates: x, y (metres from the grid's corner; row i spans
yedge[i] .. yedge[i+1], columns likewise along x), their layer k and a local vertical coordinate
zl in [0, 1) measured from the cell bottom. DELR / DELC vary (telescopic refinement around a well
field), so the column and row are found among the sorted cell edges, as flopy's
StructuredGrid.intersect does: j = #{c in 1..ncol-1 : x >= xedge[c]}, same for i with yedge.

The pore velocity at the particle is Pollock's linear interpolation of the cell-face flows of
MODFLOW's budget file (MODPATH TrackCell), divided by porosity and the face area:
    xl = (x - xedge[j]) / delr_j,  yl = (y - yedge[i]) / delc_i
    vx = ((1 - xl) qx[k, i, j] + xl qx[k, i, j + 1]) / (n * delc_i * b)
    vy = ((1 - yl) qy[k, i, j] + yl qy[k, i + 1, j]) / (n * delr_j * b)
    vz = ((1 - zl) qz[k + 1, i, j] + zl qz[k, i, j]) / (n * delr_j * delc_i)
with b the saturated thickness and n the porosity of cell (k, i, j); qx [nlay, nrow, ncol + 1],
qy [nlay, nrow + 1, ncol], qz [nlay + 1, nrow, ncol] (qz[k] is the top face of layer k, positive up).
Returns (node [N] int32 = (k * nrow + i) * ncol + j, velocity [N, 3] fp32).
"""
import torch

META = {
    "name": "particle_locate_velocity",
    "level": 2,
    "category": "groundwater",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"nlay": 2, "nrow": 12, "ncol": 20, "N": 300},
        "ragged": {"nlay": 3, "nrow": 17, "ncol": 29, "N": 517},
        "large": {"nlay": 8, "nrow": 1000, "ncol": 1000, "N": 2_000_000},
    },
    "baseline_notes": "One program per 256 particles; column and row found by a bisection over the sorted "
                      "cell edges (ceil(log2 ncol) and ceil(log2 nrow) steps of one gather each), then the "
                      "eight cell gathers (two faces per axis, thickness, porosity) and the interpolation; "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def _spacing(n: int, fine: float, coarse: float, centre: float, width: float) -> torch.Tensor:
    """Cell widths that shrink from `coarse` to `fine` around `centre` (fraction of the cells)."""
    idx = torch.arange(n, dtype=torch.float64)
    w = max(width * n, 1.0)
    return coarse - (coarse - fine) * torch.exp(-((idx - centre * n) / w) ** 2)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Particles (x, y, layer, zl), cell edges and the budget face flows, thickness, porosity."""
    s = META["sizes"][size]
    nlay, nrow, ncol, n = s["nlay"], s["nrow"], s["ncol"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    delr = _spacing(ncol, 5.0, 50.0, 0.45, 0.1)
    delc = _spacing(nrow, 5.0, 50.0, 0.5, 0.1)
    xedge = torch.cat([torch.zeros(1, dtype=torch.float64), delr.cumsum(0)])
    yedge = torch.cat([torch.zeros(1, dtype=torch.float64), delc.cumsum(0)])
    lx, ly = xedge[-1].item(), yedge[-1].item()
    # a plume of particles released near the well field, elongated down-gradient (+x)
    x = 0.45 * lx + 0.12 * lx * torch.randn(n, generator=g, dtype=torch.float64)
    y = 0.5 * ly + 0.05 * ly * torch.randn(n, generator=g, dtype=torch.float64)
    x = x.clamp(0.0, lx * (1.0 - 1e-6))
    y = y.clamp(0.0, ly * (1.0 - 1e-6))
    k = torch.randint(0, nlay, (n,), generator=g, dtype=torch.int32)
    zl = torch.rand(n, generator=g, dtype=torch.float64)
    thick = 10.0 + 20.0 * torch.rand(nlay, nrow, ncol, generator=g, dtype=torch.float64)
    poro = 0.2 + 0.15 * torch.rand(nlay, nrow, ncol, generator=g, dtype=torch.float64)
    # regional flow towards +x with noise (m^3/d through each face)
    qx = delc[None, :, None] * 15.0 * (0.02 + 0.01 * torch.randn(nlay, nrow, ncol + 1, generator=g, dtype=torch.float64))
    qy = delr[None, None, :] * 15.0 * 0.006 * torch.randn(nlay, nrow + 1, ncol, generator=g, dtype=torch.float64)
    qz = (delr[None, None, :] * delc[None, :, None]) * 2e-4 * torch.randn(nlay + 1, nrow, ncol, generator=g, dtype=torch.float64)
    qz[0] = 0.0  # no flow through the top of the model (recharge applied elsewhere)
    qz[-1] = 0.0
    to = lambda t: t.to(device=device, dtype=dt).contiguous()
    return (to(x), to(y), k.to(device), to(zl), to(xedge), to(yedge),
            to(qx), to(qy), to(qz), to(thick), to(poro))


def reference(x, y, k, zl, xedge, yedge, qx, qy, qz, thick, poro) -> tuple:
    nlay, nrow, ncol = thick.shape
    j = (torch.searchsorted(xedge, x, right=True) - 1).clamp(0, ncol - 1)
    i = (torch.searchsorted(yedge, y, right=True) - 1).clamp(0, nrow - 1)
    kk = k.long()
    x0, x1 = xedge[j].double(), xedge[j + 1].double()
    y0, y1 = yedge[i].double(), yedge[i + 1].double()
    dx, dy = x1 - x0, y1 - y0
    xl = (x.double() - x0) / dx
    yl = (y.double() - y0) / dy
    z = zl.double()
    b = thick[kk, i, j].double()
    n = poro[kk, i, j].double()
    vx = ((1 - xl) * qx[kk, i, j].double() + xl * qx[kk, i, j + 1].double()) / (n * dy * b)
    vy = ((1 - yl) * qy[kk, i, j].double() + yl * qy[kk, i + 1, j].double()) / (n * dx * b)
    vz = ((1 - z) * qz[kk + 1, i, j].double() + z * qz[kk, i, j].double()) / (n * dx * dy)
    node = ((kk * nrow + i) * ncol + j).to(torch.int32)
    return node, torch.stack([vx, vy, vz], dim=1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"]
    return {"bytes": n * (16 + 16 + 12 * 4), "flops": n * 40}
