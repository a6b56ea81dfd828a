"""Ice-thickness update of IGM (the Instructed Glacier Model, module `thk`): one explicit step of
mass conservation with IGM's first-order upwind finite-volume flux divergence.

On a regular (ny, nx) grid with cell size dx (= dy), thickness thk and depth-averaged velocities
ubar, vbar at cell centres (IGM's compute_divflux, method 'upwind'):
    u on x-edges: u_e = (u[i, j] + u[i, j+1]) / 2, and u itself on the west/east domain edges
    v on y-edges: likewise along rows
    thk is padded with zeros outside the domain (tf.pad CONSTANT)
    Qx = u_edge * (thk left of the edge if u_edge > 0 else thk right of it)      (upwind)
    Qy = v_edge * (thk below the edge if v_edge > 0 else thk above it)
    divflux = (Qx[:, 1:] - Qx[:, :-1]) / dx + (Qy[1:, :] - Qy[:-1, :]) / dx
    thk_new = max(thk + dt * (smb - divflux), 0)
Units: m, m/yr, yr. dt is the CFL step IGM's `time` module would choose (cfl 0.3).
"""
import torch

META = {
    "name": "igm_thk_upwind_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 13, "nx": 37},
        "ragged": {"ny": 9, "nx": 300},
        "large": {"ny": 2000, "nx": 3000},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over [4, 256] tiles of the grid; each "
                      "tile loads thk, ubar, vbar at the centre and at the four shifted neighbour positions "
                      "(masked at the domain edge, zero thickness outside), averages the velocities to the "
                      "edges, picks the upwind thickness with tl.where, and writes max(thk + dt (smb - div), 0); "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """thk, ubar, vbar, smb [ny, nx] (m, m/yr, m/yr, m ice/yr), dt (yr), dx (m)."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    dx = 200.0
    y = torch.linspace(0.0, 1.0, ny)[:, None]
    x = torch.linspace(0.0, 1.0, nx)[None, :]
    # a few ice caps / valley glaciers plus noise; ice-free cells between them
    thk = torch.zeros(ny, nx)
    for _ in range(4):
        cy, cx = torch.rand(2, generator=g).tolist()
        r = 0.15 + 0.25 * torch.rand(1, generator=g).item()
        h0 = 300.0 + 900.0 * torch.rand(1, generator=g).item()
        d2 = ((y - cy) ** 2 + (x - cx) ** 2) / (r * r)
        thk = torch.maximum(thk, h0 * torch.sqrt(torch.clamp(1.0 - d2, min=0.0)))
    thk = torch.clamp(thk + 5.0 * torch.randn(ny, nx, generator=g), min=0.0)
    thk[thk < 1.0] = 0.0
    flow = (thk > 0).float()
    ubar = flow * (120.0 * torch.sin(6.0 * y + 2.0 * x) + 40.0 * torch.randn(ny, nx, generator=g))
    vbar = flow * (90.0 * torch.cos(5.0 * x - 3.0 * y) + 40.0 * torch.randn(ny, nx, generator=g))
    smb = -8.0 + 10.0 * y + 0.5 * torch.randn(ny, nx, generator=g)
    vmax = torch.maximum(ubar.abs().max(), vbar.abs().max()).clamp(min=1.0).item()
    dt = 0.3 * dx / vmax
    fields = tuple(t.to(dt_).contiguous().to(device) for t in (thk, ubar, vbar, smb))
    return fields + (dt, dx)


def reference(thk, ubar, vbar, smb, dt, dx) -> torch.Tensor:
    h, u, v, b = thk.double(), ubar.double(), vbar.double(), smb.double()
    ue = torch.cat([u[:, :1], 0.5 * (u[:, :-1] + u[:, 1:]), u[:, -1:]], 1)       # (ny, nx+1)
    ve = torch.cat([v[:1, :], 0.5 * (v[:-1, :] + v[1:, :]), v[-1:, :]], 0)       # (ny+1, nx)
    hx = torch.nn.functional.pad(h, (1, 1, 0, 0))                                # (ny, nx+2)
    hy = torch.nn.functional.pad(h, (0, 0, 1, 1))                                # (ny+2, nx)
    qx = ue * torch.where(ue > 0, hx[:, :-1], hx[:, 1:])
    qy = ve * torch.where(ve > 0, hy[:-1, :], hy[1:, :])
    div = (qx[:, 1:] - qx[:, :-1]) / dx + (qy[1:, :] - qy[:-1, :]) / dx
    return torch.clamp(h + dt * (b - div), min=0.0).to(thk.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ny"] * s["nx"]
    return {"bytes": 20 * n, "flops": 30 * n}
