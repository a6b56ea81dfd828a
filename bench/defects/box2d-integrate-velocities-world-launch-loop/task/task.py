"""Box2D v3 velocity integration (b2IntegrateVelocitiesTask) for a batch of independent worlds.

Box2D v3 lets one process hold up to B2_MAX_WORLDS = 128 worlds; a reinforcement-learning or
domain-randomisation setup steps 128 copies of one scene, each world with its own gravity, time step
and speed limit. Every awake body of world k (substep h_k = dt_k / substeps, inv_dt_k = 1 / dt_k):

    lin_damp = 1 / (1 + h * linearDamping)          ang_damp = 1 / (1 + h * angularDamping)
    v = h * invMass * (force + mass * gravityScale * gravity_k) + lin_damp * v
    w = h * invInertia * torque + ang_damp * w
    if |v|^2 > maxLinearSpeed_k^2:  v *= maxLinearSpeed_k / |v|                    (speed capped)
    if w^2 > (B2_MAX_ROTATION * inv_dt_k)^2:  w *= B2_MAX_ROTATION * inv_dt_k / |w|  (speed capped)

with B2_MAX_ROTATION = pi / 4. Bodies are stored world after world (bodies_per_world each):
v [N, 2], w [N], forces [N, 3] = (force.x, force.y, torque), props [N, 6] = (mass, invMass,
invInertia, gravityScale, linearDamping, angularDamping), world [W, 5] = (gravity.x, gravity.y, h,
inv_dt, maxLinearSpeed). Returns (v [N, 2] fp32, w [N] fp32, isSpeedCapped [N] int8).
"""
import math

import torch

META = {
    "name": "box2d_integrate_velocities_worlds",
    "level": 1,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"W": 3, "B": 40},
        "ragged": {"W": 5, "B": 77},
        "large": {"W": 128, "B": 8192},
    },
    "baseline_notes": "One launch over a (cdiv(bodies_per_world, 512), worlds) grid: program (j, k) loads "
                      "world k's gravity, h, inv_dt and speed limit once and integrates 512 of its bodies "
                      "(strided field loads of the SoA-of-structs rows), writing v, w and the speed-capped "
                      "flag; 4 warps, no autotune.",
    "deterministic": True,
}
MAX_ROTATION = 0.25 * math.pi
SUBSTEPS = 4


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Body velocities, applied forces, mass/damping properties and per-world parameters."""
    s = META["sizes"][size]
    n_worlds, per_world = s["W"], s["B"]
    n = n_worlds * per_world
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])

    # boxes of 0.2 m .. 2 m sides, density 1 .. 5 kg/m^2
    a = 0.2 + 1.8 * torch.rand(n, generator=g)
    b = 0.2 + 1.8 * torch.rand(n, generator=g)
    mass = a * b * (1.0 + 4.0 * torch.rand(n, generator=g))
    inertia = mass * (a * a + b * b) / 12.0
    gravity_scale = torch.where(torch.rand(n, generator=g) < 0.05, torch.zeros(n), torch.ones(n))
    lin_damp = torch.where(torch.rand(n, generator=g) < 0.2, 0.5 * torch.rand(n, generator=g), torch.zeros(n))
    ang_damp = torch.where(torch.rand(n, generator=g) < 0.3, 2.0 * torch.rand(n, generator=g), torch.zeros(n))
    props = torch.stack([mass, 1.0 / mass, 1.0 / inertia, gravity_scale, lin_damp, ang_damp], dim=1)

    pushed = torch.rand(n, generator=g) < 0.1
    forces = torch.randn(n, 3, generator=g) * torch.stack([mass * 20.0, mass * 20.0, inertia * 30.0], dim=1)
    forces = forces * pushed[:, None]

    v = torch.randn(n, 2, generator=g) * 4.0
    fast = torch.rand(n, generator=g) < 0.01
    v[fast] = torch.nn.functional.normalize(torch.randn(int(fast.sum()), 2, generator=g), dim=1) \
        * (250.0 + 350.0 * torch.rand(int(fast.sum()), 1, generator=g))
    w = torch.randn(n, generator=g) * 3.0
    spin = torch.rand(n, generator=g) < 0.01
    w[spin] = (30.0 + 40.0 * torch.rand(int(spin.sum()), generator=g)) * torch.sign(torch.randn(int(spin.sum()), generator=g))

    step = torch.where(torch.rand(n_worlds, generator=g) < 0.5, torch.full((n_worlds,), 1.0 / 60.0),
                       torch.full((n_worlds,), 1.0 / 120.0))
    gravity = torch.stack([torch.rand(n_worlds, generator=g) * 2.0 - 1.0,
                           -(8.0 + 4.0 * torch.rand(n_worlds, generator=g))], dim=1)
    max_speed = torch.full((n_worlds,), 400.0)
    world = torch.cat([gravity, (step / SUBSTEPS)[:, None], (1.0 / step)[:, None], max_speed[:, None]], dim=1)
    return tuple(x.to(dtype=dt, device=device).contiguous() for x in (v, w, forces, props, world))


def reference(v: torch.Tensor, w: torch.Tensor, forces: torch.Tensor, props: torch.Tensor,
              world: torch.Tensor) -> tuple:
    n_worlds = world.shape[0]
    per_world = v.shape[0] // n_worlds
    wp = world.double().repeat_interleave(per_world, dim=0)
    gx, gy, h, inv_dt, max_speed = wp.unbind(1)
    fx, fy, torque = forces.double().unbind(1)
    mass, inv_mass, inv_inertia, gscale, ldamp, adamp = props.double().unbind(1)
    vx, vy = v.double().unbind(1)
    om = w.double()

    lin = 1.0 / (1.0 + h * ldamp)
    ang = 1.0 / (1.0 + h * adamp)
    vx = h * inv_mass * (fx + mass * gscale * gx) + lin * vx
    vy = h * inv_mass * (fy + mass * gscale * gy) + lin * vy
    om = h * inv_inertia * torque + ang * om

    speed2 = vx * vx + vy * vy
    cap_v = speed2 > max_speed * max_speed
    ratio = torch.where(cap_v, max_speed / speed2.clamp(min=1e-30).sqrt(), torch.ones_like(speed2))
    vx, vy = vx * ratio, vy * ratio
    max_ang = MAX_ROTATION * inv_dt
    cap_w = om * om > max_ang * max_ang
    om = torch.where(cap_w, om * (max_ang / om.abs().clamp(min=1e-30)), om)
    capped = (cap_v | cap_w).to(torch.int8)
    return torch.stack([vx, vy], dim=1).to(v.dtype), om.to(w.dtype), capped


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["W"] * s["B"]
    return {"bytes": n * (12 + 12 + 24 + 12 + 1) + s["W"] * 20, "flops": 30 * n}
