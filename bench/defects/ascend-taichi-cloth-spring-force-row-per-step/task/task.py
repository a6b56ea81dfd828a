"""One substep of Taichi's mass-spring cloth (docs.taichi-lang.org "cloth simulation" / the GGUI cloth example).

An n x n grid of mass points (quad_size = 1/n, dt = 4e-2/n) falls on a ball. Each point (i, j) is tied by springs
to its 12 grid neighbours (i + di, j + dj) with |di| + |dj| <= 2, (di, dj) != (0, 0), that exist; rest length
quad_size * |(di, dj)|. One substep, as the example's `substep()`:
    v += gravity * dt
    f  = sum over springs of  -spring_Y * d * (|x_ij| / rest - 1)  -  (v_ij . d) * d * dashpot_damping * quad_size,
         x_ij = x_i - x_j, v_ij = v_i - v_j, d = x_ij / |x_ij|
    v += f * dt
    v *= exp(-drag_damping * dt)
    if |x - c| <= r:  n = (x - c)/|x - c|,  v -= min(v . n, 0) * n        (ball velocity projection)
    x += dt * v
The forces are evaluated on the state at the start of the substep (the Taichi kernel reads v[j] while other
threads update it; the port reads the old state). B cloths are stepped together (batched rollouts); each
cloth is stored component-planar (ti.Layout.SOA): x, v [B, 3, n, n]. Returns (x_new, v_new), fp32.
"""
import math

import torch

META = {
    "name": "cloth_mass_spring_substep",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "n": 8},
        "ragged": {"B": 3, "n": 10},
        "large": {"B": 64, "n": 128},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 8 cloth rows x the whole row "
                      "(BC = next_power_of_2(n)); per block the centre tiles and, for each of the 12 spring "
                      "offsets, the shifted neighbour tiles (bounds folded into the load masks, float compares "
                      "for the spring validity), then gravity, drag, ball projection and the position update, "
                      "two stores per component. No autotune.",
    "deterministic": True,
}
SPRING_OFFSETS = [(di, dj) for di in range(-2, 3) for dj in range(-2, 3)
                  if (di, dj) != (0, 0) and abs(di) + abs(dj) <= 2]
GRAVITY = (0.0, -9.8, 0.0)
SPRING_Y, DASHPOT_DAMPING, DRAG_DAMPING = 3e4, 1e4, 1.0
BALL_RADIUS = 0.3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, v [B, 3, n, n], ball_center [3], ball_radius, dt, spring_Y, dashpot_damping, drag_damping."""
    s = META["sizes"][size]
    b, n = s["B"], s["n"]
    quad = 1.0 / n
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.arange(n, dtype=torch.float64) * quad - 0.5
    uu, ww = torch.meshgrid(u, u, indexing="ij")
    shift = (torch.rand(b, 2, 1, 1, generator=g, dtype=torch.float64) - 0.5) * 0.1
    x = torch.stack([uu.expand(b, n, n) + shift[:, 0],
                     0.29 - 0.3 * (uu ** 2 + ww ** 2).expand(b, n, n),     # draped over the ball top
                     ww.expand(b, n, n) + shift[:, 1]], 1)
    x = x + (torch.rand(b, 3, n, n, generator=g, dtype=torch.float64) - 0.5) * 0.06 * quad
    v = torch.randn(b, 3, n, n, generator=g, dtype=torch.float64) * 0.1
    v[:, 1] -= 1.0
    ball = torch.tensor([0.0, 0.0, 0.0], dtype=torch.float64)
    return (x.to(device=device, dtype=dt).contiguous(), v.to(device=device, dtype=dt).contiguous(),
            ball.to(device=device, dtype=dt), BALL_RADIUS, 4e-2 / n, SPRING_Y, DASHPOT_DAMPING, DRAG_DAMPING)


def reference(x, v, ball_center, ball_radius, dt, spring_y, dashpot_damping, drag_damping):
    xd, vd = x.double(), v.double()
    n = x.shape[-1]
    quad = 1.0 / n
    grav = torch.tensor(GRAVITY, dtype=torch.float64, device=x.device).view(1, 3, 1, 1)
    v1 = vd + grav * dt
    xp = torch.nn.functional.pad(xd, (2, 2, 2, 2))
    vp = torch.nn.functional.pad(v1, (2, 2, 2, 2))
    ok = torch.nn.functional.pad(torch.ones(n, n, dtype=torch.bool, device=x.device), (2, 2, 2, 2))
    force = torch.zeros_like(xd)
    for di, dj in SPRING_OFFSETS:
        xj = xp[..., 2 + di:2 + di + n, 2 + dj:2 + dj + n]
        vj = vp[..., 2 + di:2 + di + n, 2 + dj:2 + dj + n]
        valid = ok[2 + di:2 + di + n, 2 + dj:2 + dj + n]
        xij, vij = xd - xj, v1 - vj
        dist = xij.norm(dim=1, keepdim=True)
        d = xij / dist
        rest = quad * math.sqrt(di * di + dj * dj)
        f = -spring_y * d * (dist / rest - 1) - (vij * d).sum(1, keepdim=True) * d * dashpot_damping * quad
        force += torch.where(valid, f, torch.zeros_like(f))
    v2 = (v1 + force * dt) * math.exp(-drag_damping * dt)
    off = xd - ball_center.double().view(1, 3, 1, 1)
    dist_b = off.norm(dim=1, keepdim=True)
    normal = off / dist_b
    vn = torch.clamp((v2 * normal).sum(1, keepdim=True), max=0.0)
    v2 = v2 - torch.where(dist_b <= ball_radius, vn, torch.zeros_like(vn)) * normal
    x2 = xd + dt * v2
    return x2.to(x.dtype), v2.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["B"] * s["n"] ** 2
    return {"bytes": 48 * pts, "flops": 12 * 40 * pts}
