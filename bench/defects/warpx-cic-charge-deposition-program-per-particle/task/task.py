"""WarpX charge deposition, 3-D Cartesian, shape order 1 (cloud-in-cell) on the nodal rho grid.

As in WarpX's doChargeDepositionShapeN<1>: for each macro-particle with position (x, y, z) and
weight w, the cell-normalised coordinate xs = (x - xmin) / dx gives the lower node i = floor(xs) and
the linear shape factors sx = (1 - (xs - i), xs - i) (same in y and z); the particle adds
q * w / (dx dy dz) * sx[a] * sy[b] * sz[c] to rho[k + c, j + b, i + a] for the 8 surrounding nodes.
Particles lie inside the box, in storage order (not sorted by cell: a freshly injected thermal
plasma before the first sort). Positions are SoA xyz [3, N] (WarpX's x, y, z real components);
rho is [NZ + 1, NY + 1, NX + 1] (AMReX order, x contiguous). Returns rho fp32.
"""
import torch

META = {
    "name": "warpx_cic_charge_deposition",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 4, "NY": 4, "NZ": 4, "PPC": 2},
        "ragged": {"NX": 5, "NY": 3, "NZ": 7, "PPC": 3},
        "large": {"NX": 128, "NY": 128, "NZ": 256, "PPC": 4},
    },
    "baseline_notes": "1-D grid over particles, 512 particles per program (4 warps): masked SoA loads of x, y, z "
                      "and w, shape factors in registers, then 8 masked relaxed tl.atomic_add scatters into the "
                      "nodal rho grid (zeroed by torch.zeros). No autotune.",
    "deterministic": True,
}
DX = (0.25, 0.25, 0.125)        # cell size in x, y, z (micrometres)
LO = (-16.0, -16.0, 0.0)        # lower corner of the box
CHARGE = -1.0                   # electron charge in code units


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """xyz [3, N], w [N], lower corner (3 floats), cell size (3 floats), charge, NX, NY, NZ."""
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    n = nx * ny * nz * s["PPC"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(3, n, generator=g, dtype=torch.float64) * (1.0 - 1e-5)
    ext = torch.tensor([nx * DX[0], ny * DX[1], nz * DX[2]], dtype=torch.float64)[:, None]
    xyz = torch.tensor(LO, dtype=torch.float64)[:, None] + u * ext
    w = 0.5 + torch.rand(n, generator=g, dtype=torch.float64)
    return (xyz.to(device=device, dtype=dt), w.to(device=device, dtype=dt), LO[0], LO[1], LO[2],
            DX[0], DX[1], DX[2], CHARGE, nx, ny, nz)


def reference(xyz, w, xmin, ymin, zmin, dx, dy, dz, q, nx, ny, nz) -> torch.Tensor:
    p = xyz.double()
    xs = (p[0] - xmin) / dx
    ys = (p[1] - ymin) / dy
    zs = (p[2] - zmin) / dz
    i, j, k = xs.floor(), ys.floor(), zs.floor()
    fx, fy, fz = xs - i, ys - j, zs - k
    i, j, k = i.long(), j.long(), k.long()
    wq = w.double() * (q / (dx * dy * dz))
    rho = torch.zeros((nz + 1) * (ny + 1) * (nx + 1), dtype=torch.float64, device=xyz.device)
    for c, sz in ((0, 1.0 - fz), (1, fz)):
        for b, sy in ((0, 1.0 - fy), (1, fy)):
            for a, sx in ((0, 1.0 - fx), (1, fx)):
                node = ((k + c) * (ny + 1) + (j + b)) * (nx + 1) + (i + a)
                rho.index_add_(0, node, sx * sy * sz * wq)
    return rho.view(nz + 1, ny + 1, nx + 1).to(xyz.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["NZ"] * s["PPC"]
    nodes = (s["NX"] + 1) * (s["NY"] + 1) * (s["NZ"] + 1)
    return {"bytes": 16 * n + 4 * nodes, "flops": 40 * n}
