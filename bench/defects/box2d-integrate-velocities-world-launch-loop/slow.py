"""Box2D v3 b2IntegrateVelocitiesTask for a batch of equally sized worlds (gravity, damping, speed caps)."""
import torch
import triton
import triton.language as tl

BLOCK = 512
MAX_ROTATION = tl.constexpr(0.7853981633974483)  # B2_MAX_ROTATION = pi / 4


@triton.jit
def _integrate_velocities(v, w, forces, props, world, v_out, w_out, capped, k, per_world,
                          BLOCK: tl.constexpr):
    local = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = local < per_world
    i = k * per_world + local

    gx = tl.load(world + 5 * k)
    gy = tl.load(world + 5 * k + 1)
    h = tl.load(world + 5 * k + 2)
    inv_dt = tl.load(world + 5 * k + 3)
    max_speed = tl.load(world + 5 * k + 4)
    max_ang = MAX_ROTATION * inv_dt

    vx = tl.load(v + 2 * i, mask=ok, other=0.0)
    vy = tl.load(v + 2 * i + 1, mask=ok, other=0.0)
    om = tl.load(w + i, mask=ok, other=0.0)
    fx = tl.load(forces + 3 * i, mask=ok, other=0.0)
    fy = tl.load(forces + 3 * i + 1, mask=ok, other=0.0)
    torque = tl.load(forces + 3 * i + 2, mask=ok, other=0.0)
    mass = tl.load(props + 6 * i, mask=ok, other=0.0)
    inv_mass = tl.load(props + 6 * i + 1, mask=ok, other=0.0)
    inv_inertia = tl.load(props + 6 * i + 2, mask=ok, other=0.0)
    gscale = tl.load(props + 6 * i + 3, mask=ok, other=0.0)
    ldamp = tl.load(props + 6 * i + 4, mask=ok, other=0.0)
    adamp = tl.load(props + 6 * i + 5, mask=ok, other=0.0)

    # Pade approximation of exp(-c h)
    lin = 1.0 / (1.0 + h * ldamp)
    ang = 1.0 / (1.0 + h * adamp)
    vx = h * inv_mass * (fx + mass * gscale * gx) + lin * vx
    vy = h * inv_mass * (fy + mass * gscale * gy) + lin * vy
    om = h * inv_inertia * torque + ang * om

    speed2 = vx * vx + vy * vy
    cap_v = speed2 > max_speed * max_speed
    ratio = tl.where(cap_v, max_speed / tl.sqrt(tl.maximum(speed2, 1e-30)), 1.0)
    vx = vx * ratio
    vy = vy * ratio
    cap_w = om * om > max_ang * max_ang
    om = tl.where(cap_w, om * (max_ang / tl.maximum(tl.abs(om), 1e-30)), om)

    tl.store(v_out + 2 * i, vx, mask=ok)
    tl.store(v_out + 2 * i + 1, vy, mask=ok)
    tl.store(w_out + i, om, mask=ok)
    tl.store(capped + i, (cap_v | cap_w).to(tl.int8), mask=ok)


def run(v: torch.Tensor, w: torch.Tensor, forces: torch.Tensor, props: torch.Tensor,
        world: torch.Tensor) -> tuple:
    n = v.shape[0]
    n_worlds = world.shape[0]
    per_world = n // n_worlds
    v_out = torch.empty_like(v)
    w_out = torch.empty_like(w)
    capped = torch.empty(n, device=v.device, dtype=torch.int8)
    grid = (triton.cdiv(per_world, BLOCK),)
    for k in range(n_worlds):  # b2World_Step of each world in turn
        _integrate_velocities[grid](v, w, forces, props, world, v_out, w_out, capped, k, per_world,
                                    BLOCK=BLOCK, num_warps=4)
    return v_out, w_out, capped
