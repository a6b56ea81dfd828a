"""Meridional scalar advection tendency of WRF-ARW (module_advect_em, advect_scalar, h_sca_adv_order = 5).

On the Arakawa-C grid the coupled meridional mass flux rv sits on the v faces: face j lies between
mass cells j-1 and j. The 5th-order upwind-biased flux through face j is
    fqy[j] = rv[j] * ( (37 (q[j] + q[j-1]) - 8 (q[j+1] + q[j-2]) + (q[j+2] + q[j-3])) / 60
                       - sign(rv[j]) * ((q[j+2] - q[j-3]) - 5 (q[j+1] - q[j-2]) + 10 (q[j] - q[j-1])) / 60 )
and the tendency of cell j is
    tend[j] = -msftx[j] * rdy * (fqy[j + 1] - fqy[j]).
WRF's (i, k, j) memory order is kept: q is [ny + 6, nz, nx] with 3 halo rows on each side in j (cell j
is row j + 3), rv is [ny + 1, nz, nx] (face j is row j), the map-scale factor msftx is [ny, nx],
rdy = 1 / dy. i is the contiguous axis. Returns tend [ny, nz, nx].
"""
import torch

META = {
    "name": "wrf_advect_scalar_y5",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 8, "nz": 3, "nx": 8},
        "ragged": {"ny": 13, "nz": 5, "nx": 11},
        "large": {"ny": 650, "nz": 35, "nx": 950},
    },
    "baseline_notes": "Grid (cdiv(nx, 128), nz, ny): each program owns 128 consecutive i of one (j, k) row, "
                      "loads q at rows j-3 .. j+3, rv at faces j and j+1 and msftx (all coalesced along i), "
                      "computes both face fluxes and stores the tendency; 4 warps, no autotune.",
    "deterministic": True,
}
DY = 2500.0   # m, CONUS 2.5 km


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [ny + 6, nz, nx] (a mixing ratio, kg/kg), rv [ny + 1, nz, nx] (coupled v, Pa m/s), msftx [ny, nx], rdy."""
    s = META["sizes"][size]
    ny, nz, nx = s["ny"], s["nz"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    jj = torch.arange(ny + 6, dtype=torch.float32)[:, None, None]
    ii = torch.arange(nx, dtype=torch.float32)[None, None, :]
    kk = torch.arange(nz, dtype=torch.float32)[None, :, None]
    q = 0.012 * torch.exp(-kk / 8.0) * (1.0 + 0.3 * torch.sin(jj / 9.0) * torch.cos(ii / 13.0))
    q = q * (1.0 + 0.05 * torch.rand(ny + 6, nz, nx, generator=g))
    rv = 9.0e4 * (4.0 * torch.sin(torch.arange(ny + 1, dtype=torch.float32)[:, None, None] / 21.0 + ii / 30.0)
                  + 6.0 * torch.randn(ny + 1, nz, nx, generator=g))
    msftx = (1.0 + 0.05 * torch.linspace(0.0, 1.0, ny)[:, None]            # Lambert map factor, ~1.0-1.05
             + 0.01 * torch.cos(torch.arange(nx, dtype=torch.float32)[None, :] / 150.0))
    return (q.to(device=device, dtype=dt), rv.to(device=device, dtype=dt),
            msftx.to(device=device, dtype=dt).contiguous(), 1.0 / DY)


def reference(q: torch.Tensor, rv: torch.Tensor, msftx: torch.Tensor, rdy: float) -> torch.Tensor:
    qd, vd = q.double(), rv.double()
    ny = msftx.shape[0]
    row = lambda o: qd[3 + o:3 + o + ny + 1]     # q[j + o] for faces j = 0 .. ny
    im3, im2, im1, i0, ip1, ip2 = (row(o) for o in (-3, -2, -1, 0, 1, 2))
    face = ((37.0 * (i0 + im1) - 8.0 * (ip1 + im2) + (ip2 + im3)) / 60.0
            - torch.sign(vd) * ((ip2 - im3) - 5.0 * (ip1 - im2) + 10.0 * (i0 - im1)) / 60.0)
    fqy = vd * face                                 # [ny + 1, nz, nx]
    tend = -msftx.double()[:, None, :] * rdy * (fqy[1:] - fqy[:-1])
    return tend.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["ny"] * s["nz"] * s["nx"]
    return {"bytes": 16 * cells, "flops": 40 * cells}
