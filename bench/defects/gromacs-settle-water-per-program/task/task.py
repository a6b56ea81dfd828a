"""SETTLE for rigid water (Miyamoto & Kollman 1992; GROMACS settle.cpp / OpenMM applySettleToPositions).

Every water owns three consecutive rows (O, H1, H2) of the position arrays. Given the constrained
positions of the last step (`old`) and the unconstrained positions after the update (`new`), SETTLE
moves the three atoms of each water, keeping their centre of mass, so that |O-H| = d_OH and
|H1-H2| = d_HH again (the analytical solution in the frame of the old molecular plane).
"""
import math

import torch

META = {
    "name": "settle_water_positions",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"W": 96},
        "ragged": {"W": 219},
        "large": {"W": 1_024_000},
    },
    "baseline_notes": "Flat kernel over waters, BLOCK=128 waters per program (one per thread, 4 warps): nine "
                      "strided component loads per array, the SETTLE frame rotation in fp32 registers, nine "
                      "strided stores; masses and distances read from a 4-float parameter tensor; no autotune.",
    "deterministic": True,
}
M_O, M_H, D_OH, D_HH = 15.9994, 1.008, 0.1, 0.1633  # SPC/E
WATER_DENSITY = 33.4  # waters per nm^3
DT = 0.002  # ps


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """old [3W, 3] rigid waters in a cubic box (nm), new [3W, 3] = old + thermal velocity * dt, water_model [4] = (m_O, m_H, d_OH, d_HH)."""
    W = META["sizes"][size]["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    box = (W / WATER_DENSITY) ** (1.0 / 3.0)
    u = torch.nn.functional.normalize(torch.randn(W, 3, generator=g, dtype=torch.float64), dim=1)
    w = torch.randn(W, 3, generator=g, dtype=torch.float64)
    w = torch.nn.functional.normalize(w - (w * u).sum(1, keepdim=True) * u, dim=1)
    half = math.asin(D_HH / (2 * D_OH))
    oxy = torch.rand(W, 3, generator=g, dtype=torch.float64) * box
    h1 = oxy + D_OH * (math.sin(half) * u + math.cos(half) * w)
    h2 = oxy + D_OH * (-math.sin(half) * u + math.cos(half) * w)
    old = torch.stack([oxy, h1, h2], dim=1).reshape(3 * W, 3)
    mass = torch.tensor([M_O, M_H, M_H], dtype=torch.float64).repeat(W)[:, None]
    vel = torch.randn(3 * W, 3, generator=g, dtype=torch.float64) * torch.sqrt(0.0083144626 * 300.0 / mass)
    new = old + vel * DT
    water_model = torch.tensor([M_O, M_H, D_OH, D_HH])
    return old.to(dt).to(device), new.to(dt).to(device), water_model.to(dt).to(device)


def reference(old: torch.Tensor, new: torch.Tensor, water_model: torch.Tensor) -> torch.Tensor:
    mo, mh, d_oh, d_hh = (float(p) for p in water_model.double())
    o, n = old.double().reshape(-1, 3, 3), new.double().reshape(-1, 3, 3)
    b0, c0 = o[:, 1] - o[:, 0], o[:, 2] - o[:, 0]
    rel = n - o[:, :1]
    com = (mo * rel[:, 0] + mh * rel[:, 1] + mh * rel[:, 2]) / (mo + 2 * mh)
    a1, b1, c1 = rel[:, 0] - com, rel[:, 1] - com, rel[:, 2] - com
    ez = torch.linalg.cross(b0, c0)
    ex = torch.linalg.cross(a1, ez)
    ey = torch.linalg.cross(ez, ex)
    ex, ey, ez = (torch.nn.functional.normalize(e, dim=1) for e in (ex, ey, ez))
    dot = lambda e, v: (e * v).sum(1)  # noqa: E731
    xb0d, yb0d, xc0d, yc0d = dot(ex, b0), dot(ey, b0), dot(ex, c0), dot(ey, c0)
    za1d = dot(ez, a1)
    xb1d, yb1d, zb1d = dot(ex, b1), dot(ey, b1), dot(ez, b1)
    xc1d, yc1d, zc1d = dot(ex, c1), dot(ey, c1), dot(ez, c1)
    rc = 0.5 * d_hh
    h = math.sqrt(d_oh * d_oh - rc * rc)
    ra = h * 2 * mh / (mo + 2 * mh)
    rb = h - ra
    sinphi = za1d / ra
    cosphi = torch.sqrt(1 - sinphi * sinphi)
    sinpsi = (zb1d - zc1d) / (2 * rc * cosphi)
    cospsi = torch.sqrt(1 - sinpsi * sinpsi)
    ya2d = ra * cosphi
    xb2d = -rc * cospsi
    yb2d = -rb * cosphi - rc * sinpsi * sinphi
    yc2d = -rb * cosphi + rc * sinpsi * sinphi
    hh2 = 4 * xb2d * xb2d + (yb2d - yc2d) ** 2 + (zb1d - zc1d) ** 2
    xb2d = xb2d - 0.5 * (2 * xb2d + torch.sqrt(4 * xb2d * xb2d - hh2 + d_hh * d_hh))
    alpa = xb2d * (xb0d - xc0d) + yb0d * yb2d + yc0d * yc2d
    beta = xb2d * (yc0d - yb0d) + xb0d * yb2d + xc0d * yc2d
    gama = xb0d * yb1d - xb1d * yb0d + xc0d * yc1d - xc1d * yc0d
    al2be2 = alpa * alpa + beta * beta
    sinthe = (alpa * gama - beta * torch.sqrt(al2be2 - gama * gama)) / al2be2
    costhe = torch.sqrt(1 - sinthe * sinthe)
    a3 = torch.stack([-ya2d * sinthe, ya2d * costhe, za1d], 1)
    b3 = torch.stack([xb2d * costhe - yb2d * sinthe, xb2d * sinthe + yb2d * costhe, zb1d], 1)
    c3 = torch.stack([-xb2d * costhe - yc2d * sinthe, -xb2d * sinthe + yc2d * costhe, zc1d], 1)
    frame = torch.stack([ex, ey, ez], 2)  # columns are the frame axes
    local = torch.stack([a3, b3, c3], 1)  # [W, 3 atoms, 3]
    out = o[:, :1] + com[:, None] + torch.einsum("wij,waj->wai", frame, local)
    return out.reshape(-1, 3).to(old.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    W = META["sizes"][size]["W"]
    return {"bytes": 3 * 9 * 4 * W + 16, "flops": 260 * W}
