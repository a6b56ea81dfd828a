"""GTSAM on-manifold IMU preintegration (Forster et al.) of a batch of keyframe intervals."""
import torch
import triton
import triton.language as tl

BLOCK = 32   # intervals per program, one lane each


@triton.jit
def _integrate_sample(gyro, acc, dts, k, m, bgx, bgy, bgz, bax, bay, baz,
                      r00, r01, r02, r10, r11, r12, r20, r21, r22, vx, vy, vz, px, py, pz):
    """ManifoldPreintegration::update for sample k of every lane: returns the new dR, dv, dp."""
    dt = tl.load(dts + k, mask=m, other=0.0)
    ax = tl.load(acc + 3 * k + 0, mask=m, other=0.0) - bax
    ay = tl.load(acc + 3 * k + 1, mask=m, other=0.0) - bay
    az = tl.load(acc + 3 * k + 2, mask=m, other=0.0) - baz
    wx = (tl.load(gyro + 3 * k + 0, mask=m, other=0.0) - bgx) * dt
    wy = (tl.load(gyro + 3 * k + 1, mask=m, other=0.0) - bgy) * dt
    wz = (tl.load(gyro + 3 * k + 2, mask=m, other=0.0) - bgz) * dt
    # position and velocity with the rotation at the start of the sample
    rax = r00 * ax + r01 * ay + r02 * az
    ray = r10 * ax + r11 * ay + r12 * az
    raz = r20 * ax + r21 * ay + r22 * az
    h = 0.5 * dt * dt
    px = px + vx * dt + rax * h
    py = py + vy * dt + ray * h
    pz = pz + vz * dt + raz * h
    vx = vx + rax * dt
    vy = vy + ray * dt
    vz = vz + raz * dt
    # SO3 Expmap (Rodrigues, GTSAM's half-angle form of 1 - cos)
    t2 = wx * wx + wy * wy + wz * wz
    th = tl.sqrt(t2)
    small = t2 < 1e-8
    s2 = tl.sin(0.5 * th)
    A = tl.where(small, 1.0 - t2 / 6.0, tl.sin(th) / th)
    B = tl.where(small, 0.5 - t2 / 24.0, 2.0 * s2 * s2 / t2)
    e00 = 1.0 + B * (wx * wx - t2)
    e01 = -A * wz + B * wx * wy
    e02 = A * wy + B * wx * wz
    e10 = A * wz + B * wx * wy
    e11 = 1.0 + B * (wy * wy - t2)
    e12 = -A * wx + B * wy * wz
    e20 = -A * wy + B * wx * wz
    e21 = A * wx + B * wy * wz
    e22 = 1.0 + B * (wz * wz - t2)
    # dR <- dR Exp(phi)
    n00 = r00 * e00 + r01 * e10 + r02 * e20
    n01 = r00 * e01 + r01 * e11 + r02 * e21
    n02 = r00 * e02 + r01 * e12 + r02 * e22
    n10 = r10 * e00 + r11 * e10 + r12 * e20
    n11 = r10 * e01 + r11 * e11 + r12 * e21
    n12 = r10 * e02 + r11 * e12 + r12 * e22
    n20 = r20 * e00 + r21 * e10 + r22 * e20
    n21 = r20 * e01 + r21 * e11 + r22 * e21
    n22 = r20 * e02 + r21 * e12 + r22 * e22
    return n00, n01, n02, n10, n11, n12, n20, n21, n22, vx, vy, vz, px, py, pz


@triton.jit
def _preintegrate_step(gyro, acc, dts, bias, d_rot, d_vel, d_pos, n_win, n_samp, t,
                       FIRST: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = b < n_win
    bgx = tl.load(bias + 6 * b + 0, mask=m, other=0.0)
    bgy = tl.load(bias + 6 * b + 1, mask=m, other=0.0)
    bgz = tl.load(bias + 6 * b + 2, mask=m, other=0.0)
    bax = tl.load(bias + 6 * b + 3, mask=m, other=0.0)
    bay = tl.load(bias + 6 * b + 4, mask=m, other=0.0)
    baz = tl.load(bias + 6 * b + 5, mask=m, other=0.0)
    if FIRST:
        one = tl.full([BLOCK], 1.0, tl.float32)
        zero = tl.zeros([BLOCK], dtype=tl.float32)
        r00, r01, r02, r10, r11, r12, r20, r21, r22 = one, zero, zero, zero, one, zero, zero, zero, one
        vx, vy, vz, px, py, pz = zero, zero, zero, zero, zero, zero
    else:
        r00 = tl.load(d_rot + 9 * b + 0, mask=m, other=0.0)
        r01 = tl.load(d_rot + 9 * b + 1, mask=m, other=0.0)
        r02 = tl.load(d_rot + 9 * b + 2, mask=m, other=0.0)
        r10 = tl.load(d_rot + 9 * b + 3, mask=m, other=0.0)
        r11 = tl.load(d_rot + 9 * b + 4, mask=m, other=0.0)
        r12 = tl.load(d_rot + 9 * b + 5, mask=m, other=0.0)
        r20 = tl.load(d_rot + 9 * b + 6, mask=m, other=0.0)
        r21 = tl.load(d_rot + 9 * b + 7, mask=m, other=0.0)
        r22 = tl.load(d_rot + 9 * b + 8, mask=m, other=0.0)
        vx = tl.load(d_vel + 3 * b + 0, mask=m, other=0.0)
        vy = tl.load(d_vel + 3 * b + 1, mask=m, other=0.0)
        vz = tl.load(d_vel + 3 * b + 2, mask=m, other=0.0)
        px = tl.load(d_pos + 3 * b + 0, mask=m, other=0.0)
        py = tl.load(d_pos + 3 * b + 1, mask=m, other=0.0)
        pz = tl.load(d_pos + 3 * b + 2, mask=m, other=0.0)
    k = b * n_samp + t
    r00, r01, r02, r10, r11, r12, r20, r21, r22, vx, vy, vz, px, py, pz = _integrate_sample(
        gyro, acc, dts, k, m, bgx, bgy, bgz, bax, bay, baz,
        r00, r01, r02, r10, r11, r12, r20, r21, r22, vx, vy, vz, px, py, pz)
    tl.store(d_rot + 9 * b + 0, r00, mask=m)
    tl.store(d_rot + 9 * b + 1, r01, mask=m)
    tl.store(d_rot + 9 * b + 2, r02, mask=m)
    tl.store(d_rot + 9 * b + 3, r10, mask=m)
    tl.store(d_rot + 9 * b + 4, r11, mask=m)
    tl.store(d_rot + 9 * b + 5, r12, mask=m)
    tl.store(d_rot + 9 * b + 6, r20, mask=m)
    tl.store(d_rot + 9 * b + 7, r21, mask=m)
    tl.store(d_rot + 9 * b + 8, r22, mask=m)
    tl.store(d_vel + 3 * b + 0, vx, mask=m)
    tl.store(d_vel + 3 * b + 1, vy, mask=m)
    tl.store(d_vel + 3 * b + 2, vz, mask=m)
    tl.store(d_pos + 3 * b + 0, px, mask=m)
    tl.store(d_pos + 3 * b + 1, py, mask=m)
    tl.store(d_pos + 3 * b + 2, pz, mask=m)


def run(gyro: torch.Tensor, acc: torch.Tensor, dts: torch.Tensor, bias: torch.Tensor) -> tuple:
    n_win, n_samp = dts.shape
    d_rot = torch.empty(n_win, 3, 3, device=gyro.device, dtype=torch.float32)
    d_vel = torch.empty(n_win, 3, device=gyro.device, dtype=torch.float32)
    d_pos = torch.empty(n_win, 3, device=gyro.device, dtype=torch.float32)
    grid = (triton.cdiv(n_win, BLOCK),)
    for t in range(n_samp):   # one launch per IMU sample; the deltas live in the outputs between launches
        _preintegrate_step[grid](gyro, acc, dts, bias, d_rot, d_vel, d_pos, n_win, n_samp, t,
                                 FIRST=t == 0, BLOCK=BLOCK, num_warps=1)
    return d_rot, d_vel, d_pos
