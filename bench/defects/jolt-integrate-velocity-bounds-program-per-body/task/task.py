"""Jolt Physics PhysicsSystem::JobIntegrateVelocity for active discrete bodies, followed by the body's
world-space bounds refresh (Body::CalculateWorldSpaceBoundsInternal) for a BoxShape.

Per active dynamic body, with step delta_time dt:
    ClampLinearVelocity:   if |v|^2 > maxLinearVelocity^2:  v *= maxLinearVelocity / |v|
    ClampAngularVelocity:  if |w|^2 > maxAngularVelocity^2: w *= maxAngularVelocity / |w|
    AddRotationStep(w dt): a = w dt, len = |a|; if len > 1e-6:
                           q = normalize(Quat::sRotation(a / len, len) * q)   (Hamilton product, q = (x, y, z, w))
    AddPositionStep(v dt): p += v dt                                          (p = centre of mass)
    bounds: box of half extents e centred at p, rotated by R(q):
            min/max = p -/+ |R| e   (AABox::Transformed of AABox(-e, e))
Jolt's defaults maxLinearVelocity = 500 m/s and maxAngularVelocity = 0.25 pi * 60 rad/s are used.
Inputs: position [N, 3], rotation [N, 4], linear_velocity [N, 3], angular_velocity [N, 3],
half_extent [N, 3] (fp32), dt (float). Returns (position [N, 3], rotation [N, 4], linear_velocity
[N, 3], angular_velocity [N, 3], bounds [N, 6] = (min xyz, max xyz)).
"""
import math

import torch

META = {
    "name": "jolt_integrate_velocity_bounds",
    "level": 1,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 96},
        "ragged": {"N": 333},
        "large": {"N": 1048576},
    },
    "baseline_notes": "Grid cdiv(N, 256); each program integrates 256 bodies: strided field loads of the "
                      "packed float3 / quaternion rows, velocity clamps, axis-angle rotation step with "
                      "sin/cos and renormalisation, position step, |R| e extents; 4 warps, no autotune.",
    "deterministic": True,
}
MAX_LINEAR_VELOCITY = 500.0
MAX_ANGULAR_VELOCITY = 0.25 * math.pi * 60.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A debris field of active boxes: COM positions, unit quaternions, velocities, half extents, dt."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    position = torch.rand(n, 3, generator=g) * torch.tensor([800.0, 60.0, 800.0]) - torch.tensor([400.0, 0.0, 400.0])
    rotation = torch.nn.functional.normalize(torch.randn(n, 4, generator=g), dim=1)
    linear_velocity = torch.randn(n, 3, generator=g) * 3.0
    fast = torch.rand(n, generator=g) < 0.01
    linear_velocity[fast] *= 200.0
    angular_velocity = torch.randn(n, 3, generator=g) * 2.0
    spin = torch.rand(n, generator=g) < 0.01
    angular_velocity[spin] *= 40.0
    resting = torch.rand(n, generator=g) < 0.05
    angular_velocity[resting] = 0.0
    half_extent = 0.05 + 0.95 * torch.rand(n, 3, generator=g)
    tensors = (position, rotation, linear_velocity, angular_velocity, half_extent)
    return tuple(x.to(dtype=dt, device=device).contiguous() for x in tensors) + (1.0 / 60.0,)


def _clamp(vec: torch.Tensor, limit: float) -> torch.Tensor:
    len_sq = (vec * vec).sum(dim=1, keepdim=True)
    scale = torch.where(len_sq > limit * limit, limit / len_sq.clamp(min=1e-30).sqrt(), torch.ones_like(len_sq))
    return vec * scale


def reference(position, rotation, linear_velocity, angular_velocity, half_extent, dt):
    p, q = position.double(), rotation.double()
    v = _clamp(linear_velocity.double(), MAX_LINEAR_VELOCITY)
    w = _clamp(angular_velocity.double(), MAX_ANGULAR_VELOCITY)

    a = w * dt
    length = a.norm(dim=1, keepdim=True)
    turning = length > 1e-6
    axis = a / length.clamp(min=1e-30)
    s, c = torch.sin(0.5 * length), torch.cos(0.5 * length)
    x1, y1, z1 = (axis * s).unbind(1)
    w1 = c[:, 0]
    x0, y0, z0, w0 = q.unbind(1)
    rq = torch.stack([w1 * x0 + x1 * w0 + y1 * z0 - z1 * y0,
                      w1 * y0 - x1 * z0 + y1 * w0 + z1 * x0,
                      w1 * z0 + x1 * y0 - y1 * x0 + z1 * w0,
                      w1 * w0 - x1 * x0 - y1 * y0 - z1 * z0], dim=1)
    rq = rq / rq.norm(dim=1, keepdim=True)
    q = torch.where(turning, rq, q)
    p = p + v * dt

    x, y, z, qw = q.unbind(1)
    rot = torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - qw * z), 2 * (x * z + qw * y)], dim=1),
        torch.stack([2 * (x * y + qw * z), 1 - 2 * (x * x + z * z), 2 * (y * z - qw * x)], dim=1),
        torch.stack([2 * (x * z - qw * y), 2 * (y * z + qw * x), 1 - 2 * (x * x + y * y)], dim=1)], dim=1)
    extent = (rot.abs() * half_extent.double()[:, None, :]).sum(dim=2)
    bounds = torch.cat([p - extent, p + extent], dim=1)
    dtp = position.dtype
    return p.to(dtp), q.to(dtp), v.to(dtp), w.to(dtp), bounds.to(dtp)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (64 + 76), "flops": 150 * n}
