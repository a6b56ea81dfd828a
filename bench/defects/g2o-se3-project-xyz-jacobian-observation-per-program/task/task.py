"""Reprojection residuals and Jacobian blocks of a bundle adjustment (g2o EdgeSE3ProjectXYZ, ORB-SLAM).

g2o's `EdgeSE3ProjectXYZ` (the monocular BA edge of ORB-SLAM2/3's global bundle adjustment) links a
keyframe pose T_cw (`VertexSE3Expmap`, an SE3Quat mapping world to camera) and a map point X_w
(`VertexSBAPointXYZ`). For every observation (keyframe c, point j, measured pixel z):

    X_c = R_cw X_w + t_cw = (x, y, z)
    e   = z_obs - (fx x / z + cx, fy y / z + cy)                          computeError()
    J_X = -1/z [[fx, 0, -fx x/z], [0, fy, -fy y/z]] R_cw                   (2x3, _jacobianOplusXi)
    J_T = [[ fx x y/z^2, -fx (1 + x^2/z^2),  fx y/z, -fx/z,     0,  fx x/z^2],
           [ fy (1 + y^2/z^2), -fy x y/z^2, -fy x/z,     0, -fy/z,  fy y/z^2]]   (2x6, _jacobianOplusXj)

J_T is g2o's left perturbation in (rotation, translation) order. Poses are g2o's SE3Quat vector
(tx, ty, tz, qx, qy, qz, qw) with a unit quaternion. Returns (e [N, 2], J_T [N, 2, 6], J_X [N, 2, 3]),
float32, one row per observation, in the edge order of the optimizer (map point by map point).
"""
import math

import torch

META = {
    "name": "ba_se3_project_xyz_linearize",
    "level": 2,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"keyframes": 12, "points": 8, "views": 7},
        "ragged": {"keyframes": 20, "points": 15, "views": 7},
        "large": {"keyframes": 1600, "points": 300000, "views": 7},
    },
    "baseline_notes": "1-D grid over blocks of 128 observations; each program gathers its observations' "
                      "keyframe poses and map points as [128, 1] vectors, builds R_cw from the quaternions, "
                      "and writes e, J_T and J_X as [128, 2], [128, 16] and [128, 8] row tiles (masked to "
                      "2, 12 and 6 columns). 4 warps, no autotune.",
    "deterministic": True,
}
# KITTI 00 rectified left camera
FX, FY, CX, CY = 718.856, 718.856, 607.1928, 185.2157
RADIUS = 120.0   # the keyframes drive round a loop of this radius (metres)
STEP = 2.0 * math.pi / 1600   # one keyframe every ~0.47 m of the loop


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Keyframe poses [C, 7], map points [P, 3], observations [N, 2], keyframe and point ids [N] (int32),
    and the intrinsics fx, fy, cx, cy (floats). Every point is seen by `views` consecutive keyframes."""
    s = META["sizes"][size]
    n_kf, n_pts, views = s["keyframes"], s["points"], s["views"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    # keyframes on a circle, camera z along the direction of travel, y down (KITTI convention)
    phi = torch.arange(n_kf, dtype=f64) * STEP + 0.002 * torch.randn(n_kf, generator=g, dtype=f64)
    yaw = phi + 0.01 * torch.randn(n_kf, generator=g, dtype=f64)
    centre = torch.stack([RADIUS * torch.cos(phi), 0.05 * torch.randn(n_kf, generator=g, dtype=f64),
                          RADIUS * torch.sin(phi)], dim=-1)
    fwd = torch.stack([-torch.sin(yaw), torch.zeros_like(yaw), torch.cos(yaw)], dim=-1)
    down = torch.tensor([0.0, 1.0, 0.0], dtype=f64).expand(n_kf, 3)
    right = torch.cross(down, fwd, dim=-1)
    R_wc = torch.stack([right, down, fwd], dim=-1)             # columns: camera axes in the world
    R_cw = R_wc.transpose(1, 2)
    t_cw = -(R_cw @ centre[:, :, None])[:, :, 0]
    # quaternion (x, y, z, w) of R_cw
    tr = R_cw[:, 0, 0] + R_cw[:, 1, 1] + R_cw[:, 2, 2]
    qw = 0.5 * torch.sqrt(torch.clamp(1.0 + tr, min=1e-12))
    qx = (R_cw[:, 2, 1] - R_cw[:, 1, 2]) / (4.0 * qw)
    qy = (R_cw[:, 0, 2] - R_cw[:, 2, 0]) / (4.0 * qw)
    qz = (R_cw[:, 1, 0] - R_cw[:, 0, 1]) / (4.0 * qw)
    poses = torch.cat([t_cw, torch.stack([qx, qy, qz, qw], dim=-1)], dim=-1)
    # map points: created in front of a keyframe, then seen by it and the next views-1 keyframes
    first = torch.randint(0, n_kf - views + 1, (n_pts,), generator=g)
    u = torch.rand(n_pts, generator=g, dtype=f64) * 1241.0
    v = torch.rand(n_pts, generator=g, dtype=f64) * 376.0
    depth = 12.0 + 50.0 * torch.rand(n_pts, generator=g, dtype=f64)
    xc = torch.stack([(u - CX) / FX * depth, (v - CY) / FY * depth, depth], dim=-1)
    pts = (R_wc[first] @ xc[:, :, None])[:, :, 0] + centre[first]
    kf = (first[:, None] + torch.arange(views)[None, :]).reshape(-1)
    pid = torch.arange(n_pts)[:, None].expand(n_pts, views).reshape(-1)
    Xc = (R_cw[kf] @ pts[pid][:, :, None])[:, :, 0] + t_cw[kf]
    obs = torch.stack([FX * Xc[:, 0] / Xc[:, 2] + CX, FY * Xc[:, 1] / Xc[:, 2] + CY], dim=-1)
    obs = obs + torch.randn(obs.shape, generator=g, dtype=f64)      # ~1 px keypoint noise
    pts = pts + 0.05 * torch.randn(pts.shape, generator=g, dtype=f64)  # current estimate, not the truth
    return (poses.to(device=device, dtype=dt), pts.to(device=device, dtype=dt), obs.to(device=device, dtype=dt),
            kf.to(device=device, dtype=torch.int32), pid.to(device=device, dtype=torch.int32), FX, FY, CX, CY)


def reference(poses, points, obs, kf_idx, pt_idx, fx, fy, cx, cy) -> tuple:
    P, X, z = poses.double(), points.double(), obs.double()
    T = P[kf_idx.long()]
    t, q = T[:, :3], T[:, 3:]
    q = q / q.norm(dim=-1, keepdim=True)
    qx, qy, qz, qw = q.unbind(-1)
    R = torch.stack([
        1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw),
        2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw),
        2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)], dim=-1).reshape(-1, 3, 3)
    Xc = (R @ X[pt_idx.long()][:, :, None])[:, :, 0] + t
    x, y, d = Xc.unbind(-1)
    err = z - torch.stack([fx * x / d + cx, fy * y / d + cy], dim=-1)
    iz, iz2 = 1.0 / d, 1.0 / (d * d)
    zero = torch.zeros_like(x)
    jt = torch.stack([
        x * y * iz2 * fx, -(1 + x * x * iz2) * fx, y * iz * fx, -iz * fx, zero, x * iz2 * fx,
        (1 + y * y * iz2) * fy, -x * y * iz2 * fy, -x * iz * fy, zero, -iz * fy, y * iz2 * fy], dim=-1).reshape(-1, 2, 6)
    tmp = torch.stack([fx + zero, zero, -x * iz * fx, zero, fy + zero, -y * iz * fy], dim=-1).reshape(-1, 2, 3)
    jx = -iz[:, None, None] * (tmp @ R)
    return err.float(), jt.float(), jx.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["points"] * s["views"]
    return {"bytes": n * (8 + 8 + 28 + 12 + 8 + 48 + 24), "flops": 120 * n}
