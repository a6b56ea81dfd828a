"""AB3DMOT Kalman step (constant-velocity predict, update where matched) for every track of a batch of scenes."""
import torch
import triton
import triton.language as tl

Q_POS = tl.constexpr(1.0)
Q_VEL = tl.constexpr(0.01)
R_MEAS = tl.constexpr(1.0)
BLOCK = 128


@triton.jit
def _axis_step(x, P, z, x_out, P_out, rows, live, upd, dt, AXIS: tl.constexpr):
    """Position/velocity pair of one axis: 2x2 covariance block, position observed."""
    p = tl.load(x + rows * 10 + AXIS, mask=live, other=0.0)
    v = tl.load(x + rows * 10 + 7 + AXIS, mask=live, other=0.0)
    cpp = tl.load(P + rows * 13 + 3 * AXIS, mask=live, other=1.0)
    cpv = tl.load(P + rows * 13 + 3 * AXIS + 1, mask=live, other=0.0)
    cvv = tl.load(P + rows * 13 + 3 * AXIS + 2, mask=live, other=1.0)
    zp = tl.load(z + rows * 7 + AXIS, mask=live, other=0.0)
    p = p + dt * v
    cpp = cpp + dt * (2.0 * cpv + dt * cvv) + Q_POS
    cpv = cpv + dt * cvv
    cvv = cvv + Q_VEL
    kp = tl.where(upd, cpp / (cpp + R_MEAS), 0.0)
    kv = tl.where(upd, cpv / (cpp + R_MEAS), 0.0)
    innov = zp - p
    tl.store(x_out + rows * 10 + AXIS, p + kp * innov, mask=live)
    tl.store(x_out + rows * 10 + 7 + AXIS, v + kv * innov, mask=live)
    tl.store(P_out + rows * 13 + 3 * AXIS, cpp - kp * cpp, mask=live)
    tl.store(P_out + rows * 13 + 3 * AXIS + 1, cpv - kp * cpv, mask=live)
    tl.store(P_out + rows * 13 + 3 * AXIS + 2, cvv - kv * cpv, mask=live)


@triton.jit
def _scalar_step(x, P, z, x_out, P_out, rows, live, upd, IDX: tl.constexpr):
    """Orientation or box size: a static state with its own variance."""
    s = tl.load(x + rows * 10 + 3 + IDX, mask=live, other=0.0)
    var = tl.load(P + rows * 13 + 9 + IDX, mask=live, other=1.0) + Q_POS
    zs = tl.load(z + rows * 7 + 3 + IDX, mask=live, other=0.0)
    k = tl.where(upd, var / (var + R_MEAS), 0.0)
    tl.store(x_out + rows * 10 + 3 + IDX, s + k * (zs - s), mask=live)
    tl.store(P_out + rows * 13 + 9 + IDX, var - k * var, mask=live)


@triton.jit
def _kf_step(x, P, z, matched, track_scene, scene_dt, x_out, P_out, n_tracks, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = rows < n_tracks
    upd = tl.load(matched + rows, mask=live, other=0) != 0
    dt = tl.load(scene_dt + tl.load(track_scene + rows, mask=live, other=0), mask=live, other=0.0)
    for axis in tl.static_range(3):
        _axis_step(x, P, z, x_out, P_out, rows, live, upd, dt, axis)
    for idx in tl.static_range(4):
        _scalar_step(x, P, z, x_out, P_out, rows, live, upd, idx)


def run(x, P, z, matched, track_scene, scene_ptr, scene_dt):
    n = x.shape[0]
    x_out = torch.empty_like(x)
    P_out = torch.empty_like(P)
    grid = (triton.cdiv(n, BLOCK),)
    _kf_step[grid](x, P, z, matched, track_scene, scene_dt, x_out, P_out, n, BLOCK=BLOCK, num_warps=4)
    return x_out, P_out
