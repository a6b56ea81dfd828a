"""Ray fan through the Munk sound-speed profile (BELLHOP's TraceRay2D / Step2D, analytic 'A' profile, run type 'R').

Every ray launched at angle alpha_b from the source depth zs is integrated in arc length s with BELLHOP's
two-stage Runge-Kutta step (a half step to the midpoint, then the full step with the midpoint derivatives)
of the ray and dynamic-ray equations for a depth-only profile c(z):

    dr/ds = c xi,   dz/ds = c zeta,   dzeta/ds = -c_z / c^2,   dtau/ds = 1 / c,
    dp/ds = -c_nn / c^2 q,   dq/ds = c p,   c_nn = c_zz (c xi)^2,

with xi = cos(alpha) / c(zs) constant, zeta(0) = sin(alpha) / c(zs), p(0) = 1 / c(zs), q(0) = 0, and the
Munk profile c(z) = 1500 (1 + 0.00737 (eta - 1 + exp(-eta))), eta = 2 (z - 1300) / 1300. A step that ends
above the surface or below the flat bottom is mirrored back (z -> -z or 2 D - z, zeta -> -zeta).
Returns the trajectories after every step, r, z, tau and q, each [NSTEP, NRAY] fp32 (step-major, so one
step of the whole fan is one contiguous row).
"""
import math

import torch

META = {
    "name": "munk_ray_trace",
    "level": 2,
    "category": "acoustics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1.0, "rtol": 2e-4}},
    "sizes": {
        "small": {"NRAY": 24, "NSTEP": 32, "ds": 200.0, "fan": 30.0},
        "ragged": {"NRAY": 37, "NSTEP": 53, "ds": 150.0, "fan": 25.0},
        "large": {"NRAY": 2048, "NSTEP": 2048, "ds": 50.0, "fan": 12.0},
    },
    "baseline_notes": "min(40, cdiv(NRAY, 64)) programs (the A2's vector cores) loop over blocks of 64 rays; each "
                      "block's ray state (r, z, xi, zeta, tau, p, q) is 64-lane vectors carried through the NSTEP "
                      "Runge-Kutta steps, mirrored at surface and bottom with tl.where, and each step stores one "
                      "contiguous 64-ray row of r, z, tau and q. No autotune.",
    "deterministic": True,
}
SOURCE_DEPTH = 1000.0  # m
DEPTH = 5000.0         # m, flat bottom


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Launch angles alpha [NRAY] (rad), source depth, step, step count, depth.

    At size large the fan is the +-12 deg sound-channel fan (every ray refracted, no boundary contact, so fp32
    stays within the tolerance of the fp64 reference over 2048 steps); the small sizes use a wider fan and a
    longer step so that surface and bottom reflections are exercised.
    """
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    fan = s["fan"] * (1.0 + 0.05 * float(torch.rand(1, generator=g)))
    alpha = torch.linspace(-fan, fan, s["NRAY"], dtype=torch.float64) * (math.pi / 180.0)
    return alpha.to(dt).to(device), SOURCE_DEPTH, s["ds"], s["NSTEP"], DEPTH


def _munk(z: torch.Tensor) -> tuple:
    eta = 2.0 * (z - 1300.0) / 1300.0
    e = torch.exp(-eta)
    c = 1500.0 * (1.0 + 0.00737 * (eta - 1.0 + e))
    cz = 1500.0 * 0.00737 * (2.0 / 1300.0) * (1.0 - e)
    czz = 1500.0 * 0.00737 * (2.0 / 1300.0) ** 2 * e
    return c, cz, czz


def reference(alpha: torch.Tensor, zs: float, ds: float, nstep: int, depth: float) -> tuple:
    a = alpha.double()
    c0 = _munk(torch.full_like(a, zs))[0]
    xi, zeta = torch.cos(a) / c0, torch.sin(a) / c0
    r, z, tau = torch.zeros_like(a), torch.full_like(a, zs), torch.zeros_like(a)
    p, q = 1.0 / c0, torch.zeros_like(a)
    out = [torch.empty(nstep, a.shape[0], dtype=torch.float64, device=a.device) for _ in range(4)]
    h = 0.5 * ds
    for k in range(nstep):
        c, cz, czz = _munk(z)
        cnn = czz * (c * xi) ** 2
        z1, zeta1 = z + h * c * zeta, zeta - h * cz / (c * c)
        p1, q1 = p - h * cnn / (c * c) * q, q + h * c * p
        c1, cz1, czz1 = _munk(z1)
        cnn1 = czz1 * (c1 * xi) ** 2
        r, z = r + ds * c1 * xi, z + ds * c1 * zeta1
        zeta, tau = zeta - ds * cz1 / (c1 * c1), tau + ds / c1
        p, q = p - ds * cnn1 / (c1 * c1) * q1, q + ds * c1 * p1
        top, bot = z < 0.0, z > depth
        z = torch.where(top, -z, torch.where(bot, 2.0 * depth - z, z))
        zeta = torch.where(top | bot, -zeta, zeta)
        for o, v in zip(out, (r, z, tau, q)):
            o[k] = v
    return tuple(o.to(alpha.dtype) for o in out)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["NRAY"] + 16 * s["NRAY"] * s["NSTEP"], "flops": 70 * s["NRAY"] * s["NSTEP"]}
