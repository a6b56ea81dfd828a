"""Bundle-adjustment reprojection residuals and Jacobians (COLMAP ReprojErrorCostFunction, SIMPLE_RADIAL camera).

Every observation i (image c_i sees 3-D point p_i at pixel x_i) of a reconstruction is linearised for the
Gauss-Newton / Levenberg-Marquardt step of COLMAP's bundle adjuster:
    X_c = R(q_c) X_p + t_c                        (cam_from_world: unit quaternion (w, x, y, z) and translation)
    u = X_c.x / X_c.z,  v = X_c.y / X_c.z,  r2 = u^2 + v^2
    pixel = f (1 + k r2) (u, v) + (cx, cy)        (SIMPLE_RADIAL: f, cx, cy, k)
    residual_i = pixel - x_i                                               [M, 2]
    J_pose_i  = d residual / d (omega, delta_t)  for R <- exp([omega]x) R,  t <- t + delta_t   [M, 2, 6]
    J_point_i = d residual / d X_p                                         [M, 2, 3]
Observations are stored grouped by image (the order COLMAP walks image.Points2D()); image_counts is the
per-image observation count the host already knows. Returns (residual, J_pose, J_point), all fp32.
"""
import torch

META = {
    "name": "ba_reprojection_jacobian",
    "level": 2,
    "category": "bundle-adjustment",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"images": 4, "points": 60, "min_obs": 10, "max_obs": 40},
        "ragged": {"images": 7, "points": 45, "min_obs": 0, "max_obs": 37},
        "large": {"images": 1200, "points": 400000, "min_obs": 1500, "max_obs": 4500},
    },
    "baseline_notes": "One launch over all observations, 256 per program (~14K programs at large); each "
                      "observation gathers its point and its image's quaternion, translation and intrinsics "
                      "(a 53 KB table that stays in cache), builds R, projects, and writes residual (2), pose "
                      "Jacobian (12) and point Jacobian (6). 4 warps, no autotune.",
    "deterministic": True,
}


def _rotation(q: torch.Tensor) -> torch.Tensor:
    w, x, y, z = q.unbind(-1)
    return torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        torch.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        torch.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def _unit_quaternions(n: int, g: torch.Generator) -> torch.Tensor:
    q = torch.randn(n, 4, generator=g, dtype=torch.float64)
    q = q / q.norm(dim=1, keepdim=True)
    return torch.where(q[:, :1] < 0, -q, q)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """obs_xy [M, 2], obs_point [M] int32, obs_image [M] int32 (sorted), image_counts (tuple of ints, host),
    points [P, 3], qvec [C, 4], tvec [C, 3], camera params [C, 4] = (f, cx, cy, k): the current estimate of an
    object-centred reconstruction, 15 m from a 4 m-radius scene, with observations from the true one."""
    s = META["sizes"][size]
    C, P = s["images"], s["points"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["min_obs"], s["max_obs"] + 1, (C,), generator=g)
    obs_image = torch.repeat_interleave(torch.arange(C), counts)
    M = obs_image.numel()
    obs_point = torch.randint(0, P, (M,), generator=g)
    points = torch.randn(P, 3, generator=g, dtype=torch.float64)
    points = points / points.norm(dim=1, keepdim=True) * 4.0 * torch.rand(P, 1, generator=g, dtype=torch.float64) ** (1 / 3)
    q_true = _unit_quaternions(C, g)
    t_true = torch.tensor([0.0, 0.0, 15.0], dtype=torch.float64) + 0.3 * torch.randn(C, 3, generator=g, dtype=torch.float64)
    params = torch.stack([1400.0 + 200.0 * torch.rand(C, generator=g, dtype=torch.float64),
                          torch.full((C,), 960.0, dtype=torch.float64), torch.full((C,), 540.0, dtype=torch.float64),
                          0.02 * torch.randn(C, generator=g, dtype=torch.float64)], 1)
    obs_xy = _project(points[obs_point], q_true[obs_image], t_true[obs_image], params[obs_image])
    obs_xy = obs_xy + torch.randn(M, 2, generator=g, dtype=torch.float64)
    # the current estimate: poses and points a little off the truth
    q = q_true + 0.002 * torch.randn(C, 4, generator=g, dtype=torch.float64)
    q = q / q.norm(dim=1, keepdim=True)
    t = t_true + 0.01 * torch.randn(C, 3, generator=g, dtype=torch.float64)
    points = points + 0.005 * torch.randn(P, 3, generator=g, dtype=torch.float64)
    cast = lambda x: x.to(device=device, dtype=dt)
    return (cast(obs_xy), obs_point.to(device=device, dtype=torch.int32), obs_image.to(device=device, dtype=torch.int32),
            tuple(int(c) for c in counts.tolist()), cast(points), cast(q), cast(t), cast(params))


def _project(X: torch.Tensor, q: torch.Tensor, t: torch.Tensor, params: torch.Tensor) -> torch.Tensor:
    Xc = (_rotation(q) @ X[..., None])[..., 0] + t
    uv = Xc[:, :2] / Xc[:, 2:]
    f, c, k = params[:, :1], params[:, 1:3], params[:, 3:]
    return f * uv * (1.0 + k * (uv * uv).sum(1, keepdim=True)) + c


def reference(obs_xy, obs_point, obs_image, image_counts, points, qvec, tvec, cam_params) -> tuple:
    img, pt = obs_image.long(), obs_point.long()
    R = _rotation(qvec.double())[img]                                     # [M, 3, 3]
    RX = (R @ points.double()[pt][..., None])[..., 0]
    Xc = RX + tvec.double()[img]
    prm = cam_params.double()[img]
    f, k = prm[:, 0], prm[:, 3]
    iz = 1.0 / Xc[:, 2]
    u, v = Xc[:, 0] * iz, Xc[:, 1] * iz
    r2 = u * u + v * v
    a = 1.0 + k * r2
    residual = torch.stack([f * u * a + prm[:, 1], f * v * a + prm[:, 2]], 1) - obs_xy.double()
    # d pixel / d (u, v), then d (u, v) / d X_c
    d_uv = torch.stack([torch.stack([f * (a + 2 * k * u * u), f * 2 * k * u * v], -1),
                        torch.stack([f * 2 * k * u * v, f * (a + 2 * k * v * v)], -1)], -2)
    zero = torch.zeros_like(u)
    d_proj = torch.stack([torch.stack([iz, zero, -u * iz], -1), torch.stack([zero, iz, -v * iz], -1)], -2)
    J_c = d_uv @ d_proj                                                   # [M, 2, 3] = d residual / d X_c
    ax, ay, az = RX.unbind(1)
    minus_skew = torch.stack([torch.stack([zero, az, -ay], -1), torch.stack([-az, zero, ax], -1),
                              torch.stack([ay, -ax, zero], -1)], -2)      # d X_c / d omega = -[R X]x
    J_pose = torch.cat([J_c @ minus_skew, J_c], 2)
    J_point = J_c @ R
    dt = obs_xy.dtype
    return residual.to(dt), J_pose.to(dt), J_point.to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m = s["images"] * (s["min_obs"] + s["max_obs"]) // 2
    return {"bytes": m * (8 + 4 + 4 + 12 + 80), "flops": 150 * m}
