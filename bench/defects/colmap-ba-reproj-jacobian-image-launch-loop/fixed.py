"""Bundle adjustment: reprojection residuals and pose / point Jacobians of every observation (SIMPLE_RADIAL)."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _reprojection(obs_xy, obs_point, obs_image, points, qvec, tvec, cam_params, res, jpose, jpoint,
                  m, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = i < m
    # the observing image's pose and intrinsics
    img = tl.load(obs_image + i, mask=ok, other=0)
    qw = tl.load(qvec + 4 * img, mask=ok, other=0.0)
    qx = tl.load(qvec + 4 * img + 1, mask=ok, other=0.0)
    qy = tl.load(qvec + 4 * img + 2, mask=ok, other=0.0)
    qz = tl.load(qvec + 4 * img + 3, mask=ok, other=0.0)
    tx = tl.load(tvec + 3 * img, mask=ok, other=0.0)
    ty = tl.load(tvec + 3 * img + 1, mask=ok, other=0.0)
    tz = tl.load(tvec + 3 * img + 2, mask=ok, other=0.0)
    f = tl.load(cam_params + 4 * img, mask=ok, other=0.0)
    cx = tl.load(cam_params + 4 * img + 1, mask=ok, other=0.0)
    cy = tl.load(cam_params + 4 * img + 2, mask=ok, other=0.0)
    k = tl.load(cam_params + 4 * img + 3, mask=ok, other=0.0)
    r00 = 1.0 - 2.0 * (qy * qy + qz * qz)
    r01 = 2.0 * (qx * qy - qw * qz)
    r02 = 2.0 * (qx * qz + qw * qy)
    r10 = 2.0 * (qx * qy + qw * qz)
    r11 = 1.0 - 2.0 * (qx * qx + qz * qz)
    r12 = 2.0 * (qy * qz - qw * qx)
    r20 = 2.0 * (qx * qz - qw * qy)
    r21 = 2.0 * (qy * qz + qw * qx)
    r22 = 1.0 - 2.0 * (qx * qx + qy * qy)
    # the observed point
    pt = tl.load(obs_point + i, mask=ok, other=0)
    X = tl.load(points + 3 * pt, mask=ok, other=0.0)
    Y = tl.load(points + 3 * pt + 1, mask=ok, other=0.0)
    Z = tl.load(points + 3 * pt + 2, mask=ok, other=1.0)
    ax = r00 * X + r01 * Y + r02 * Z
    ay = r10 * X + r11 * Y + r12 * Z
    az = r20 * X + r21 * Y + r22 * Z
    iz = 1.0 / (az + tz)
    u = (ax + tx) * iz
    v = (ay + ty) * iz
    r2 = u * u + v * v
    a = 1.0 + k * r2
    ex = f * u * a + cx - tl.load(obs_xy + 2 * i, mask=ok, other=0.0)
    ey = f * v * a + cy - tl.load(obs_xy + 2 * i + 1, mask=ok, other=0.0)
    # d residual / d X_c = d pixel / d (u, v) . d (u, v) / d X_c
    duu = f * (a + 2.0 * k * u * u)
    duv = f * (2.0 * k * u * v)
    dvv = f * (a + 2.0 * k * v * v)
    j00 = duu * iz
    j01 = duv * iz
    j02 = -(duu * u + duv * v) * iz
    j10 = duv * iz
    j11 = dvv * iz
    j12 = -(duv * u + dvv * v) * iz
    tl.store(res + 2 * i, ex, mask=ok)
    tl.store(res + 2 * i + 1, ey, mask=ok)
    # pose: d X_c / d omega = -[R X]x, d X_c / d t = I
    jp = jpose + 12 * i
    tl.store(jp, j02 * ay - j01 * az, mask=ok)
    tl.store(jp + 1, j00 * az - j02 * ax, mask=ok)
    tl.store(jp + 2, j01 * ax - j00 * ay, mask=ok)
    tl.store(jp + 3, j00, mask=ok)
    tl.store(jp + 4, j01, mask=ok)
    tl.store(jp + 5, j02, mask=ok)
    tl.store(jp + 6, j12 * ay - j11 * az, mask=ok)
    tl.store(jp + 7, j10 * az - j12 * ax, mask=ok)
    tl.store(jp + 8, j11 * ax - j10 * ay, mask=ok)
    tl.store(jp + 9, j10, mask=ok)
    tl.store(jp + 10, j11, mask=ok)
    tl.store(jp + 11, j12, mask=ok)
    # point: d X_c / d X = R
    jq = jpoint + 6 * i
    tl.store(jq, j00 * r00 + j01 * r10 + j02 * r20, mask=ok)
    tl.store(jq + 1, j00 * r01 + j01 * r11 + j02 * r21, mask=ok)
    tl.store(jq + 2, j00 * r02 + j01 * r12 + j02 * r22, mask=ok)
    tl.store(jq + 3, j10 * r00 + j11 * r10 + j12 * r20, mask=ok)
    tl.store(jq + 4, j10 * r01 + j11 * r11 + j12 * r21, mask=ok)
    tl.store(jq + 5, j10 * r02 + j11 * r12 + j12 * r22, mask=ok)


def run(obs_xy, obs_point, obs_image, image_counts, points, qvec, tvec, cam_params) -> tuple:
    m = obs_xy.shape[0]
    res = torch.empty((m, 2), device=obs_xy.device, dtype=torch.float32)
    jpose = torch.empty((m, 2, 6), device=obs_xy.device, dtype=torch.float32)
    jpoint = torch.empty((m, 2, 3), device=obs_xy.device, dtype=torch.float32)
    _reprojection[(triton.cdiv(m, BLOCK),)](
        obs_xy, obs_point, obs_image, points, qvec, tvec, cam_params, res, jpose, jpoint,
        m, BLOCK=BLOCK, num_warps=4)
    return res, jpose, jpoint
