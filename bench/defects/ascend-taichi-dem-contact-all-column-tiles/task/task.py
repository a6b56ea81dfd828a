"""Grain-grain contact forces of Taichi DEM (taichi-dev/taichi_dem, dem.py `contact()`), on cell-sorted grains.

2-D discs with position p, velocity v, mass m and radius r. Every grain gets gravity, plus a linear
spring-dashpot normal force from each other grain j it overlaps (delta = r_i + r_j - |p_j - p_i| > 0):
    n   = (p_j - p_i) / |p_j - p_i|
    f1  = K * delta * n
    M   = m_i m_j / (m_i + m_j),   C = 2 / sqrt(1 + (pi / ln e)^2) * sqrt(K * M)
    f2  = C * ((v_j - v_i) . n) * n
    f_i += f2 - f1
(dem.py writes (v_j - v_i) * normal componentwise; the normal damping of the model is the dot product.)

The grains arrive in the order of dem.py's counting sort (its "fast collision detection"): by grid column
gx = floor(p.x * G) first, then by gy; col_start[c] is the index of the first grain of column c and
col_start[G] = N. As dem.py asserts, 2 * r_max < 1 / G, so two overlapping grains are in the same or in
adjacent columns. Returns the force f [2, N] (row 0 = x, row 1 = y), fp32.
"""
import math

import torch

META = {
    "name": "dem_grain_contact_forces",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300, "width": 0.2},
        "ragged": {"N": 777, "width": 0.3},
        "large": {"N": 32768, "width": 0.96},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over i-tiles of 16 cell-sorted grains; each "
                      "tile takes the lowest and highest column of its grains and walks only the j-tiles of 64 "
                      "grains between col_start[c_lo - 1] and col_start[c_hi + 2], computing the [16, 64] pair "
                      "block (distance, overlap, spring and dashpot) and reducing it along the contiguous j axis; "
                      "forces stored once per i-tile. No atomics, no autotune.",
    "deterministic": True,
}
GRID_N = 128          # dem.py grid_n
R_MIN, R_MAX = 0.002, 0.003
DENSITY = 100.0
STIFFNESS = 8e3
RESTITUTION = 0.001
GRAVITY = -9.81


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [2, N], vel [2, N], mass [N], radius [N] (cell-sorted), col_start [G + 1] int32, K, e, g."""
    s = META["sizes"][size]
    n, width = s["N"], s["width"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    spacing = 0.0052                                # a settled pile: neighbours touch or overlap slightly
    per_row = int(width / spacing)
    k = torch.arange(n)
    row, col = k // per_row, k % per_row
    x = 0.5 - width / 2 + (col.double() + 0.5 * (row % 2).double()) * spacing
    y = 0.01 + row.double() * spacing * 0.9
    x = x + (torch.rand(n, generator=g, dtype=torch.float64) - 0.5) * 1.2e-3
    y = y + (torch.rand(n, generator=g, dtype=torch.float64) - 0.5) * 1.2e-3
    pos = torch.stack([x, y]).clamp(1e-4, 1.0 - 1e-4).to(torch.float32)
    radius = (torch.rand(n, generator=g) * (R_MAX - R_MIN) + R_MIN).to(torch.float32)
    vel = (torch.randn(2, n, generator=g) * 0.05).to(torch.float32)
    mass = (DENSITY * math.pi * radius.double() ** 2).to(torch.float32)
    gx = (pos[0] * GRID_N).floor().long().clamp(0, GRID_N - 1)
    gy = (pos[1] * GRID_N).floor().long().clamp(0, GRID_N - 1)
    order = torch.sort(gx * GRID_N + gy, stable=True).indices
    pos, vel, mass, radius, gx = pos[:, order], vel[:, order], mass[order], radius[order], gx[order]
    col_start = torch.zeros(GRID_N + 1, dtype=torch.int64)
    col_start[1:] = torch.cumsum(torch.bincount(gx, minlength=GRID_N), 0)
    return (pos.contiguous().to(device=device, dtype=dt), vel.contiguous().to(device=device, dtype=dt),
            mass.to(device=device, dtype=dt), radius.to(device=device, dtype=dt),
            col_start.to(device=device, dtype=torch.int32), STIFFNESS, RESTITUTION, GRAVITY)


def reference(pos, vel, mass, radius, col_start, stiffness, restitution, gravity):
    p, v, m, r = pos.double(), vel.double(), mass.double(), radius.double()
    n = p.shape[1]
    beta = 2.0 / math.sqrt(1.0 + (math.pi / math.log(restitution)) ** 2)
    f = torch.zeros(2, n, dtype=torch.float64, device=p.device)
    f[1] = gravity * m
    idx = torch.arange(n, device=p.device)
    for s in range(0, n, 256):
        i = idx[s:s + 256]
        rel = p[:, None, :] - p[:, i, None]                      # [2, bi, N]: p_j - p_i
        dist = rel.pow(2).sum(0).sqrt()
        delta = r[i, None] + r[None, :] - dist
        hit = (delta > 0) & (i[:, None] != idx[None, :])
        nrm = rel / dist.clamp_min(1e-30)
        mij = m[i, None] * m[None, :] / (m[i, None] + m[None, :])
        c = beta * torch.sqrt(stiffness * mij)
        vn = ((v[:, None, :] - v[:, i, None]) * nrm).sum(0)
        s_ = torch.where(hit, c * vn - stiffness * delta, torch.zeros_like(delta))
        f[:, i] += (s_[None] * nrm).sum(-1)
    return f.to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 32 * n, "flops": 40 * 7 * n * 64}
