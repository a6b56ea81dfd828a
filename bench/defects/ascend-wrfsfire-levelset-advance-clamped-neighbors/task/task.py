"""One explicit level-set step of the fire front (WRF-SFIRE module_fr_sfire_core: tend_ls + fire_ros).

phi is the level-set function on the fire mesh (phi < 0 burning, phi > 0 unburnt, the front is phi = 0).
One forward-Euler step of  d phi / dt + R(x, n) |grad phi| = 0  with, per cell (i row = y, j column = x):
    one-sided differences  dxm = (phi[i,j] - phi[i,j-1]) / dx,  dxp = (phi[i,j+1] - phi[i,j]) / dx  (same in y)
    zero-gradient boundary (the neighbour index is clamped to the mesh, so the edge difference is 0)
    normal             n = (gx, gy) / max(|g|, eps) with central differences gx = (dxm + dxp) / 2, gy likewise
    spread rate        R = ros0 * (1 + phiwc * max(u . n, eps) ** bbb)   (Rothermel base + wind term)
    Godunov upwinding  |grad phi|^2 = max(dxm, 0)^2 + min(dxp, 0)^2 + max(dym, 0)^2 + min(dyp, 0)^2
    phi_new = phi - dt * R * |grad phi|
Inputs phi, ros0, phiwc, u, v fp32 [H, W] and scalars dx, dt, bbb; output phi_new fp32 [H, W].
"""
import torch

META = {
    "name": "levelset_fire_advance",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 24, "W": 40},
        "ragged": {"H": 37, "W": 53},
        "large": {"H": 4096, "W": 4096},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over [4, 256] tiles of the fire mesh; the "
                      "centre and the four shifted neighbour tiles are contiguous masked loads, the mesh "
                      "edge is handled with a select that substitutes the centre value (zero gradient); "
                      "normal, wind term, Godunov gradient and the Euler update in registers, one store. "
                      "No autotune.",
    "deterministic": True,
}
EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A few elliptical fire perimeters as a signed distance (m), per-cell fuel rates and a wind field."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    dx = 6.0                                                   # fire-mesh spacing, m
    y = torch.arange(H, dtype=torch.float64)[:, None] * dx
    x = torch.arange(W, dtype=torch.float64)[None, :] * dx
    phi = torch.full((H, W), float("inf"), dtype=torch.float64)
    for _ in range(3):
        cy, cx = torch.rand(2, generator=g, dtype=torch.float64) * torch.tensor([H * dx, W * dx], dtype=torch.float64)
        r = (0.1 + 0.2 * torch.rand(1, generator=g, dtype=torch.float64)) * min(H, W) * dx
        phi = torch.minimum(phi, torch.sqrt((y - cy) ** 2 + (x - cx) ** 2) - r)
    phi = phi + 0.5 * dx * torch.randn(H, W, generator=g, dtype=torch.float64)
    ros0 = 0.02 + 0.3 * torch.rand(H, W, generator=g)            # m/s, no-wind no-slope spread rate
    phiwc = 0.5 + 2.0 * torch.rand(H, W, generator=g)            # fuel wind coefficient
    ang = 0.6 + 0.3 * torch.randn(H, W, generator=g)
    spd = 3.0 + 2.0 * torch.rand(H, W, generator=g)              # m/s at mid-flame height
    u, v = spd * torch.cos(ang), spd * torch.sin(ang)
    cast = lambda t: t.to(dt_).to(device)
    return cast(phi), cast(ros0), cast(phiwc), cast(u), cast(v), dx, 0.5, 1.4


def reference(phi, ros0, phiwc, u, v, dx: float, dt: float, bbb: float) -> torch.Tensor:
    p = phi.double()
    H, W = p.shape
    jm = torch.clamp(torch.arange(W) - 1, min=0)
    jp = torch.clamp(torch.arange(W) + 1, max=W - 1)
    im = torch.clamp(torch.arange(H) - 1, min=0)
    ip = torch.clamp(torch.arange(H) + 1, max=H - 1)
    dxm = (p - p[:, jm]) / dx
    dxp = (p[:, jp] - p) / dx
    dym = (p - p[im, :]) / dx
    dyp = (p[ip, :] - p) / dx
    gx, gy = 0.5 * (dxm + dxp), 0.5 * (dym + dyp)
    inv = 1.0 / torch.clamp(torch.sqrt(gx * gx + gy * gy), min=EPS)
    spd = torch.clamp(u.double() * gx * inv + v.double() * gy * inv, min=EPS)
    ros = ros0.double() * (1.0 + phiwc.double() * torch.exp(bbb * torch.log(spd)))
    grad = torch.sqrt(torch.clamp(dxm, min=0) ** 2 + torch.clamp(dxp, max=0) ** 2
                      + torch.clamp(dym, min=0) ** 2 + torch.clamp(dyp, max=0) ** 2)
    return (p - dt * ros * grad).to(phi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 24 * n, "flops": 45 * n}
