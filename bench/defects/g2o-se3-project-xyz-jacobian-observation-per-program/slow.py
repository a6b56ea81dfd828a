"""g2o EdgeSE3ProjectXYZ: reprojection error and Jacobian blocks of every BA observation."""
import torch
import triton
import triton.language as tl

@triton.jit
def _se3_project_xyz_linearize(poses, points, obs, kf_idx, pt_idx, err, jac_pose, jac_point,
                               fx, fy, cx, cy):
    e = tl.program_id(0)                      # one program per edge
    c2 = tl.arange(0, 2)
    c8 = tl.arange(0, 8)
    c16 = tl.arange(0, 16)
    c = tl.load(kf_idx + e)
    j = tl.load(pt_idx + e)
    # keyframe pose T_cw as g2o's SE3Quat vector (t, q)
    tx = tl.load(poses + 7 * c + 0)
    ty = tl.load(poses + 7 * c + 1)
    tz = tl.load(poses + 7 * c + 2)
    qx = tl.load(poses + 7 * c + 3)
    qy = tl.load(poses + 7 * c + 4)
    qz = tl.load(poses + 7 * c + 5)
    qw = tl.load(poses + 7 * c + 6)
    X = tl.load(points + 3 * j + 0)
    Y = tl.load(points + 3 * j + 1)
    Z = tl.load(points + 3 * j + 2)
    z_obs = tl.load(obs + 2 * e + c2)
    # R_cw from the unit quaternion
    r00 = 1.0 - 2.0 * (qy * qy + qz * qz)
    r01 = 2.0 * (qx * qy - qz * qw)
    r02 = 2.0 * (qx * qz + qy * qw)
    r10 = 2.0 * (qx * qy + qz * qw)
    r11 = 1.0 - 2.0 * (qx * qx + qz * qz)
    r12 = 2.0 * (qy * qz - qx * qw)
    r20 = 2.0 * (qx * qz - qy * qw)
    r21 = 2.0 * (qy * qz + qx * qw)
    r22 = 1.0 - 2.0 * (qx * qx + qy * qy)
    # SE3Quat::map
    x = r00 * X + r01 * Y + r02 * Z + tx
    y = r10 * X + r11 * Y + r12 * Z + ty
    z = r20 * X + r21 * Y + r22 * Z + tz
    iz = 1.0 / z
    iz2 = iz * iz
    # computeError: measurement - cam_project(X_c)
    proj = tl.where(c2 == 0, fx * x * iz + cx, fy * y * iz + cy)
    tl.store(err + 2 * e + c2, z_obs - proj)
    # _jacobianOplusXj: 2x6 w.r.t. the pose (rotation, translation), row-major
    jt = tl.where(c16 == 0, x * y * iz2 * fx,
         tl.where(c16 == 1, -(1.0 + x * x * iz2) * fx,
         tl.where(c16 == 2, y * iz * fx,
         tl.where(c16 == 3, -iz * fx,
         tl.where(c16 == 5, x * iz2 * fx,
         tl.where(c16 == 6, (1.0 + y * y * iz2) * fy,
         tl.where(c16 == 7, -x * y * iz2 * fy,
         tl.where(c16 == 8, -x * iz * fy,
         tl.where(c16 == 10, -iz * fy,
         tl.where(c16 == 11, y * iz2 * fy, 0.0))))))))))
    tl.store(jac_pose + 12 * e + c16, jt, mask=c16 < 12)
    # _jacobianOplusXi: -1/z * [[fx, 0, -fx x/z], [0, fy, -fy y/z]] * R_cw
    a0 = -iz * fx
    a2 = x * iz2 * fx
    b1 = -iz * fy
    b2 = y * iz2 * fy
    jx = tl.where(c8 == 0, a0 * r00 + a2 * r20,
         tl.where(c8 == 1, a0 * r01 + a2 * r21,
         tl.where(c8 == 2, a0 * r02 + a2 * r22,
         tl.where(c8 == 3, b1 * r10 + b2 * r20,
         tl.where(c8 == 4, b1 * r11 + b2 * r21, b1 * r12 + b2 * r22)))))
    tl.store(jac_point + 6 * e + c8, jx, mask=c8 < 6)


def run(poses, points, obs, kf_idx, pt_idx, fx, fy, cx, cy) -> tuple:
    n_obs = obs.shape[0]
    err = torch.empty(n_obs, 2, device=obs.device, dtype=torch.float32)
    jac_pose = torch.empty(n_obs, 2, 6, device=obs.device, dtype=torch.float32)
    jac_point = torch.empty(n_obs, 2, 3, device=obs.device, dtype=torch.float32)
    grid = (n_obs,)
    _se3_project_xyz_linearize[grid](poses, points, obs, kf_idx, pt_idx, err, jac_pose, jac_point,
                                     fx, fy, cx, cy)
    return err, jac_pose, jac_point
