"""Smilei 2D3V particle step: 2nd-order field interpolation (Interpolator2D2Order) + Boris pusher (PusherBoris).

Normalised units (lengths in c/omega_r, momenta in m c). Fields live on the 2-D Yee grid as one array
em [6, NX + 5, NY + 5] (Ex, Ey, Ez, Bx, By, Bz; Smilei's Field2D order, y contiguous, 2 ghost nodes
before node 0). Ex and By are dual in x, Ey and Bx dual in y, Bz dual in both, Ez primal. For a particle at
(x, y): xpn = x / dx, primal node ip = round(xpn) with delta = xpn - ip, dual node id = round(xpn + 1/2)
with delta = xpn - id + 1/2 (dual node id sits at (id - 1/2) dx), and the three quadratic weights
0.5 (d^2 - d + 1/4), 3/4 - d^2, 0.5 (d^2 + d + 1/4) on nodes -1, 0, +1; same in y. Each of the six
components is the 3 x 3 weighted sum at its own staggering.

Boris (Smilei PusherBoris, alpha = q/m dt/2): u- = p + alpha E; T = alpha B / gamma(u-);
u' = R(T) u- with the closed-form rotation (1 + T^2)^-1 [...]; p' = u' + alpha E;
x' = x + dt p'_x / gamma(p'), y' likewise.

Particles are SoA (Smilei's Position[2][N], Momentum[3][N]) stored patch by patch: patch ip owns
particles patch_first[ip] .. patch_first[ip + 1] - 1, all inside its 32 x 32-cell (large) sub-domain;
patches in the vacuum before the plasma ramp are empty. Returns (position [2, N], momentum [3, N]).
"""
import math

import torch

META = {
    "name": "smilei_interp2d2_boris_push",
    "level": 2,
    "category": "particle",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"NX": 16, "NY": 8, "PX": 8, "PY": 4, "PPC": 2},
        "ragged": {"NX": 24, "NY": 12, "PX": 8, "PY": 4, "PPC": 3},
        "large": {"NX": 2048, "NY": 512, "PX": 32, "PY": 32, "PPC": 8},
    },
    "baseline_notes": "One launch over all N particles (the patch layout is irrelevant to the math: fields are "
                      "global arrays), 256 particles per program, 4 warps: SoA loads, 6 x 9 gathered field "
                      "nodes with the quadratic weights, Boris rotation in registers, SoA stores. No autotune.",
    "deterministic": True,
}
GHOST = 2
DX = 0.2            # cell length in c / omega_r, both directions
Q_OVER_M = -1.0     # electrons
A0 = 2.0            # laser strength


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [2, N], mom [3, N], em [6, NX+5, NY+5], patch_first (tuple of n_patches + 1 ints), dx, dy, dt, q/m."""
    s = META["sizes"][size]
    nx, ny, px, py, ppc = s["NX"], s["NY"], s["PX"], s["PY"], s["PPC"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    npx, npy = nx // px, ny // py
    # density: vacuum over the first 1/8 of the box, linear ramp over the next 1/4, then plateau
    xs, ys, first = [], [], [0]
    for ipx in range(npx):
        xc = (ipx + 0.5) / npx
        dens = min(max((xc - 0.125) / 0.25, 0.0), 1.0)
        for ipy in range(npy):
            cnt = int(round(dens * ppc * px * py))
            u = torch.rand(2, cnt, generator=g, dtype=torch.float64) * (1.0 - 1e-6)
            xs.append((ipx * px + u[0] * px) * DX)
            ys.append((ipy * py + u[1] * py) * DX)
            first.append(first[-1] + cnt)
    pos = torch.stack([torch.cat(xs), torch.cat(ys)])
    n = pos.shape[1]
    mom = 0.02 * torch.randn(3, n, generator=g, dtype=torch.float64)
    mom[0] += 0.3 * torch.rand(n, generator=g, dtype=torch.float64)
    # fields on the padded node index (i - GHOST) * dx: a laser pulse (Ey, Bz) and a wake (Ex, Ey), plus noise
    xg = (torch.arange(nx + 2 * GHOST + 1, dtype=torch.float64) - GHOST)[:, None] * DX
    yg = (torch.arange(ny + 2 * GHOST + 1, dtype=torch.float64) - GHOST)[None, :] * DX
    lx, ly = nx * DX, ny * DX
    env = torch.exp(-((xg - 0.7 * lx) / (0.08 * lx)) ** 2 - ((yg - 0.5 * ly) / (0.3 * ly)) ** 2)
    phase = 2.0 * math.pi * xg / (20.0 * DX)
    em = torch.stack([
        0.1 * torch.sin(2.0 * math.pi * xg / (0.3 * lx)) * torch.exp(-((yg - 0.5 * ly) / (0.4 * ly)) ** 2),
        A0 * env * torch.sin(phase) + 0.05 * (yg - 0.5 * ly) / ly,
        0.0 * env,
        0.0 * env,
        0.0 * env,
        A0 * env * torch.sin(phase),
    ]).expand(6, nx + 2 * GHOST + 1, ny + 2 * GHOST + 1).clone()
    em += 0.01 * torch.randn(em.shape, generator=g, dtype=torch.float64)
    dt = 0.95 / math.sqrt(2.0 / (DX * DX))
    return (pos.to(device=device, dtype=dt_), mom.to(device=device, dtype=dt_), em.to(device=device, dtype=dt_),
            tuple(first), DX, DX, dt, Q_OVER_M)


def _weights(d):
    d2 = d * d
    return (0.5 * (d2 - d + 0.25), 0.75 - d2, 0.5 * (d2 + d + 0.25))


def _gather(f, ix, iy, wx, wy):
    out = torch.zeros_like(wx[0])
    for a in range(3):
        for b in range(3):
            out += wx[a] * wy[b] * f[ix + a - 1 + GHOST, iy + b - 1 + GHOST]
    return out


def reference(pos, mom, em, patch_first, dx, dy, dt, q_over_m) -> tuple:
    x, y = pos.double()
    px, py, pz = mom.double()
    f = em.double()
    xpn, ypn = x / dx, y / dy
    ip, jp = torch.floor(xpn + 0.5), torch.floor(ypn + 0.5)
    idd, jd = torch.floor(xpn + 1.0), torch.floor(ypn + 1.0)
    wxp, wyp = _weights(xpn - ip), _weights(ypn - jp)
    wxd, wyd = _weights(xpn - idd + 0.5), _weights(ypn - jd + 0.5)
    ip, jp, idd, jd = ip.long(), jp.long(), idd.long(), jd.long()
    ex = _gather(f[0], idd, jp, wxd, wyp)
    ey = _gather(f[1], ip, jd, wxp, wyd)
    ez = _gather(f[2], ip, jp, wxp, wyp)
    bx = _gather(f[3], ip, jd, wxp, wyd)
    by = _gather(f[4], idd, jp, wxd, wyp)
    bz = _gather(f[5], idd, jd, wxd, wyd)
    a = 0.5 * q_over_m * dt
    umx, umy, umz = px + a * ex, py + a * ey, pz + a * ez
    inv_g = a / torch.sqrt(1.0 + umx * umx + umy * umy + umz * umz)
    tx, ty, tz = inv_g * bx, inv_g * by, inv_g * bz
    inv_det = 1.0 / (1.0 + tx * tx + ty * ty + tz * tz)
    upx = ((1.0 + tx * tx - ty * ty - tz * tz) * umx + 2.0 * (tx * ty + tz) * umy + 2.0 * (tz * tx - ty) * umz) * inv_det
    upy = (2.0 * (tx * ty - tz) * umx + (1.0 - tx * tx + ty * ty - tz * tz) * umy + 2.0 * (ty * tz + tx) * umz) * inv_det
    upz = (2.0 * (tz * tx + ty) * umx + 2.0 * (ty * tz - tx) * umy + (1.0 - tx * tx - ty * ty + tz * tz) * umz) * inv_det
    px, py, pz = upx + a * ex, upy + a * ey, upz + a * ez
    inv_gf = 1.0 / torch.sqrt(1.0 + px * px + py * py + pz * pz)
    new_pos = torch.stack([x + dt * px * inv_gf, y + dt * py * inv_gf])
    new_mom = torch.stack([px, py, pz])
    return new_pos.to(pos.dtype), new_mom.to(mom.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["PPC"]
    return {"bytes": 40 * n + 24 * (s["NX"] + 5) * (s["NY"] + 5), "flops": 220 * n}
