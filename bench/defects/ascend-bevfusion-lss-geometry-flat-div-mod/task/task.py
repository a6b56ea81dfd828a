"""BEVFusion camera branch, LSS view transform: frustum geometry to BEV cell ranks (get_geometry + bev_pool prep).

Frustum point (b, n, d, h, w) sits at image pixel (u, v) = (w * (IMG_W - 1) / (W - 1), h * (IMG_H - 1) / (H - 1))
and depth dep = 1 + d * 59 / D metres. Per camera, cam_params[b, n] holds 24 floats: inv(post_rots)
(3x3, row-major), post_trans (3), combine = camera2lidar_rots @ inv(intrins) (3x3), camera2lidar_trans (3).
The point is un-augmented (p = inv(post_rots) @ ((u, v, dep) - post_trans)), lifted (p.xy *= p.z), moved to
the lidar frame (g = combine @ p + trans), binned as BEVFusion does (((g - lower) / cell).long(), i.e.
truncated) on the xbound [-54, 54, 0.3] / zbound [-10, 10, 20] grid (360 x 360 x 1), and given the rank
x * (NY * NZ * B) + y * (NZ * B) + z * B + b of bev_pool; points outside the grid get -1.
"""
import torch

IMG_H, IMG_W = 256, 704
D_MIN, D_MAX = 1.0, 60.0
XY_LO, XY_CELL, NXY = -54.0, 0.3, 360
Z_LO, Z_CELL, NZ = -10.0, 20.0, 1

META = {
    "name": "lss_geometry_ranks",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "N": 2, "D": 4, "H": 4, "W": 8},
        "ragged": {"B": 2, "N": 3, "D": 5, "H": 3, "W": 11},
        "large": {"B": 4, "N": 6, "D": 118, "H": 32, "W": 88},
    },
    "baseline_notes": "Persistent grid of 40 programs (the A2's vector cores) striding over the (camera, depth bin) "
                      "planes; per plane the camera's 24 parameters are read as scalars and the [H, W] pixel tile "
                      "is a 2-D block (rows h, contiguous columns w): un-augment, lift, rotate, bin and store the "
                      "int32 ranks of the plane contiguously.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cam_params [B, N, 24]: a six-camera nuScenes-like rig (yaw n*360/N), resize ~0.48 and crop augmentation."""
    s = META["sizes"][size]
    B, N = s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    params = torch.zeros(B, N, 24, dtype=torch.float64)
    base = torch.tensor([[0.0, 0.0, 1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]], dtype=torch.float64)
    for b in range(B):
        for n in range(N):
            r = 0.48 + 0.04 * float(torch.rand(1, generator=g))
            crop = torch.tensor([32.0, 176.0]) + torch.randn(2, generator=g, dtype=torch.float64) * 8
            post_rots = torch.diag(torch.tensor([r, r, 1.0], dtype=torch.float64))
            post_trans = torch.tensor([-crop[0], -crop[1], 0.0], dtype=torch.float64)
            f = 1266.0 + 20 * float(torch.randn(1, generator=g))
            intrins = torch.tensor([[f, 0, 816.0], [0, f, 491.0], [0, 0, 1]], dtype=torch.float64)
            yaw = n * 2 * torch.pi / N + 0.02 * float(torch.randn(1, generator=g))
            c, sn = torch.cos(torch.tensor(yaw)), torch.sin(torch.tensor(yaw))
            rz = torch.tensor([[c, -sn, 0], [sn, c, 0], [0, 0, 1]], dtype=torch.float64)
            rots = rz @ base
            trans = torch.tensor([1.0 * c, 1.0 * sn, 1.6], dtype=torch.float64)
            params[b, n] = torch.cat([torch.linalg.inv(post_rots).reshape(-1), post_trans,
                                      (rots @ torch.linalg.inv(intrins)).reshape(-1), trans])
    return params.to(getattr(torch, dtype or META["dtypes"][0])).to(device), s["D"], s["H"], s["W"]


def reference(cam_params: torch.Tensor, D: int, H: int, W: int) -> torch.Tensor:
    B, N = cam_params.shape[:2]
    f32 = lambda v: torch.tensor(v, dtype=torch.float32, device=cam_params.device)
    ar = lambda n: torch.arange(n, device=cam_params.device).float()
    u = (ar(W) * f32((IMG_W - 1) / (W - 1))).view(1, 1, 1, 1, W)
    v = (ar(H) * f32((IMG_H - 1) / (H - 1))).view(1, 1, 1, H, 1)
    dep = (f32(D_MIN) + ar(D) * f32((D_MAX - D_MIN) / D)).view(1, 1, D, 1, 1)
    p = [cam_params[..., k].float().view(B, N, 1, 1, 1) for k in range(24)]
    px, py, pz = u - p[9], v - p[10], dep - p[11]
    qx = p[0] * px + p[1] * py + p[2] * pz
    qy = p[3] * px + p[4] * py + p[5] * pz
    qz = p[6] * px + p[7] * py + p[8] * pz
    qx, qy = qx * qz, qy * qz
    gx = p[12] * qx + p[13] * qy + p[14] * qz + p[21]
    gy = p[15] * qx + p[16] * qy + p[17] * qz + p[22]
    gz = p[18] * qx + p[19] * qy + p[20] * qz + p[23]
    ix = ((gx - f32(XY_LO)) / f32(XY_CELL)).to(torch.int32)
    iy = ((gy - f32(XY_LO)) / f32(XY_CELL)).to(torch.int32)
    iz = ((gz - f32(Z_LO)) / f32(Z_CELL)).to(torch.int32)
    b = torch.arange(B, device=cam_params.device, dtype=torch.int32).view(B, 1, 1, 1, 1)
    kept = (ix >= 0) & (ix < NXY) & (iy >= 0) & (iy < NXY) & (iz >= 0) & (iz < NZ)
    rank = ix * (NXY * NZ * B) + iy * (NZ * B) + iz * B + b
    return torch.where(kept, rank, torch.full_like(rank, -1))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = s["B"] * s["N"] * s["D"] * s["H"] * s["W"]
    return {"bytes": 4 * P + 96 * s["B"] * s["N"], "flops": 40 * P}
