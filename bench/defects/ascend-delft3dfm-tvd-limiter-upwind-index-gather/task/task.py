"""D-Flow FM (Delft3D-FM) TVD advection: flux-limited face values of a transported constituent.

For the higher-order explicit transport of salinity, temperature or sediment, D-Flow FM builds the value
of the constituent on every flow link from its upwind cell plus a limited slope (dlimiter): with the
upwind cell u, the downwind cell d and the cell upwind of u (klnup), per link
    d1 = c[u] - c[uu]          upwind difference   (0 when the link has no upwind-upwind cell: first order)
    d2 = c[d] - c[u]           central difference
    phi = max(0, min(2r, (1 + r) / 2, 2)), r = d1 / d2   when d1 * d2 > 0, else 0   (monotonized central)
    c_face = c[u] + phi / 2 * d2
    flux = q * c_face          q the link discharge [m3/s]
Here on a Cartesian patch of ny rows of nx cells, stored row by row: x-link f = 0..nx of a row joins cells
f-1 and f; the upwind cell is f-1 when q > 0, else f. Links 0 and nx are closed boundaries (q = 0 there).
Returns flux [ny, nx + 1] fp32.
"""
import torch

META = {
    "name": "dflowfm_tvd_link_flux",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 6, "nx": 48},
        "ragged": {"ny": 5, "nx": 37},
        "large": {"ny": 2048, "nx": 2048},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over [4, 256] tiles of links; each tile loads "
                      "the discharges and the row's concentrations at offsets f-2, f-1, f and f+1 (four "
                      "contiguous masked loads), picks upwind, downwind and upwind-upwind values with tl.where on "
                      "the sign of q, applies the MC limiter and stores q * c_face. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Concentration c [ny, nx] (salinity, psu) and link discharges q [ny, nx + 1] (m3/s, 0 on the closed ends)."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.linspace(0.0, 1.0, nx, dtype=torch.float64)
    y = torch.linspace(0.0, 1.0, ny, dtype=torch.float64)
    front = 0.5 + 0.15 * torch.sin(7.0 * y)[:, None]
    c = 2.0 + 30.0 / (1.0 + torch.exp(-(x[None, :] - front) / 0.04))          # estuarine salt front
    c = c + 0.8 * torch.randn(ny, nx, generator=g, dtype=torch.float64)         # sub-grid noise
    c = c.clamp(min=0.0)
    xf = torch.linspace(0.0, 1.0, nx + 1, dtype=torch.float64)
    q = 40.0 * torch.sin(3.0 * xf[None, :] + 5.0 * y[:, None]) + 15.0 * torch.randn(ny, nx + 1, generator=g,
                                                                                     dtype=torch.float64)
    q[:, 0] = 0.0
    q[:, nx] = 0.0
    return c.to(device=device, dtype=dt), q.to(device=device, dtype=dt)


def reference(c: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    cd_, qd = c.double(), q.double()
    ny, nx = cd_.shape
    pad = torch.zeros(ny, nx + 4, dtype=torch.float64, device=c.device)
    pad[:, 2:nx + 2] = cd_                        # pad[:, j + 2] = c[:, j]
    f = torch.arange(nx + 1, device=c.device)
    cm2, cm1, c0, cp1 = pad[:, f], pad[:, f + 1], pad[:, f + 2], pad[:, f + 3]
    pos = qd > 0
    cu = torch.where(pos, cm1, c0)
    cdn = torch.where(pos, c0, cm1)
    cuu = torch.where(pos, cm2, cp1)
    has_uu = torch.where(pos, (f >= 2)[None, :], (f + 1 < nx)[None, :])
    d1 = torch.where(has_uu, cu - cuu, torch.zeros_like(cu))
    d2 = cdn - cu
    same = d1 * d2 > 0
    r = d1 / torch.where(same, d2, torch.ones_like(d2))
    phi = torch.clamp(torch.minimum(torch.minimum(2.0 * r, 0.5 * (1.0 + r)), torch.full_like(r, 2.0)), min=0.0)
    phi = torch.where(same, phi, torch.zeros_like(phi))
    flux = qd * (cu + 0.5 * phi * d2)
    flux[:, 0] = 0.0
    flux[:, nx] = 0.0
    return flux.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    return {"bytes": 4 * ny * nx + 8 * ny * (nx + 1), "flops": 20 * ny * (nx + 1)}
