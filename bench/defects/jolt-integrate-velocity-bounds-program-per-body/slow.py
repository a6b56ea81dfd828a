"""Jolt JobIntegrateVelocity (velocity clamps, rotation and position steps) + BoxShape world bounds."""
import math

import torch
import triton
import triton.language as tl

MAX_LINEAR_VELOCITY = 500.0
MAX_ANGULAR_VELOCITY = 0.25 * math.pi * 60.0


@triton.jit
def _integrate_bodies(pos, rot, lin_vel, ang_vel, half_ext,
                      pos_out, rot_out, v_out, w_out, bounds, dt, max_lin, max_ang):
    b = tl.program_id(0)  # one active body per program

    # MotionProperties::ClampLinearVelocity / ClampAngularVelocity
    vx = tl.load(lin_vel + 3 * b)
    vy = tl.load(lin_vel + 3 * b + 1)
    vz = tl.load(lin_vel + 3 * b + 2)
    v_sq = vx * vx + vy * vy + vz * vz
    v_scale = tl.where(v_sq > max_lin * max_lin, max_lin / tl.sqrt(tl.maximum(v_sq, 1e-30)), 1.0)
    vx = vx * v_scale
    vy = vy * v_scale
    vz = vz * v_scale
    wx = tl.load(ang_vel + 3 * b)
    wy = tl.load(ang_vel + 3 * b + 1)
    wz = tl.load(ang_vel + 3 * b + 2)
    w_sq = wx * wx + wy * wy + wz * wz
    w_scale = tl.where(w_sq > max_ang * max_ang, max_ang / tl.sqrt(tl.maximum(w_sq, 1e-30)), 1.0)
    wx = wx * w_scale
    wy = wy * w_scale
    wz = wz * w_scale

    # Body::AddRotationStep(w * dt): q = normalize(Quat::sRotation(axis, len) * q)
    x0 = tl.load(rot + 4 * b)
    y0 = tl.load(rot + 4 * b + 1)
    z0 = tl.load(rot + 4 * b + 2)
    q0 = tl.load(rot + 4 * b + 3)
    ax = wx * dt
    ay = wy * dt
    az = wz * dt
    angle = tl.sqrt(ax * ax + ay * ay + az * az)
    turning = angle > 1e-6
    s = tl.sin(0.5 * angle) / tl.maximum(angle, 1e-30)
    x1 = ax * s
    y1 = ay * s
    z1 = az * s
    q1 = tl.cos(0.5 * angle)
    rx = q1 * x0 + x1 * q0 + y1 * z0 - z1 * y0
    ry = q1 * y0 - x1 * z0 + y1 * q0 + z1 * x0
    rz = q1 * z0 + x1 * y0 - y1 * x0 + z1 * q0
    rw = q1 * q0 - x1 * x0 - y1 * y0 - z1 * z0
    inv_len = 1.0 / tl.sqrt(rx * rx + ry * ry + rz * rz + rw * rw)
    qx = tl.where(turning, rx * inv_len, x0)
    qy = tl.where(turning, ry * inv_len, y0)
    qz = tl.where(turning, rz * inv_len, z0)
    qw = tl.where(turning, rw * inv_len, q0)

    # Body::AddPositionStep(v * dt)
    px = tl.load(pos + 3 * b) + vx * dt
    py = tl.load(pos + 3 * b + 1) + vy * dt
    pz = tl.load(pos + 3 * b + 2) + vz * dt

    # CalculateWorldSpaceBoundsInternal: AABox(-e, e).Transformed(Mat44::sRotationTranslation(q, p))
    ex = tl.load(half_ext + 3 * b)
    ey = tl.load(half_ext + 3 * b + 1)
    ez = tl.load(half_ext + 3 * b + 2)
    r00 = 1.0 - 2.0 * (qy * qy + qz * qz)
    r01 = 2.0 * (qx * qy - qw * qz)
    r02 = 2.0 * (qx * qz + qw * qy)
    r10 = 2.0 * (qx * qy + qw * qz)
    r11 = 1.0 - 2.0 * (qx * qx + qz * qz)
    r12 = 2.0 * (qy * qz - qw * qx)
    r20 = 2.0 * (qx * qz - qw * qy)
    r21 = 2.0 * (qy * qz + qw * qx)
    r22 = 1.0 - 2.0 * (qx * qx + qy * qy)
    hx = tl.abs(r00) * ex + tl.abs(r01) * ey + tl.abs(r02) * ez
    hy = tl.abs(r10) * ex + tl.abs(r11) * ey + tl.abs(r12) * ez
    hz = tl.abs(r20) * ex + tl.abs(r21) * ey + tl.abs(r22) * ez

    tl.store(v_out + 3 * b, vx)
    tl.store(v_out + 3 * b + 1, vy)
    tl.store(v_out + 3 * b + 2, vz)
    tl.store(w_out + 3 * b, wx)
    tl.store(w_out + 3 * b + 1, wy)
    tl.store(w_out + 3 * b + 2, wz)
    tl.store(rot_out + 4 * b, qx)
    tl.store(rot_out + 4 * b + 1, qy)
    tl.store(rot_out + 4 * b + 2, qz)
    tl.store(rot_out + 4 * b + 3, qw)
    tl.store(pos_out + 3 * b, px)
    tl.store(pos_out + 3 * b + 1, py)
    tl.store(pos_out + 3 * b + 2, pz)
    tl.store(bounds + 6 * b, px - hx)
    tl.store(bounds + 6 * b + 1, py - hy)
    tl.store(bounds + 6 * b + 2, pz - hz)
    tl.store(bounds + 6 * b + 3, px + hx)
    tl.store(bounds + 6 * b + 4, py + hy)
    tl.store(bounds + 6 * b + 5, pz + hz)


def run(position, rotation, linear_velocity, angular_velocity, half_extent, dt):
    n = position.shape[0]
    pos_out = torch.empty_like(position)
    rot_out = torch.empty_like(rotation)
    v_out = torch.empty_like(linear_velocity)
    w_out = torch.empty_like(angular_velocity)
    bounds = torch.empty((n, 6), device=position.device, dtype=position.dtype)
    grid = (n,)
    _integrate_bodies[grid](position, rotation, linear_velocity, angular_velocity, half_extent,
                            pos_out, rot_out, v_out, w_out, bounds, dt,
                            MAX_LINEAR_VELOCITY, MAX_ANGULAR_VELOCITY, num_warps=4)
    return pos_out, rot_out, v_out, w_out, bounds
