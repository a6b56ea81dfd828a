"""LiDAR range image: brute-force Moller-Trumbore over 32-ray x 32-triangle tiles, closest hit per ray."""
import torch
import triton
import triton.language as tl


@triton.jit
def _closest_hit(origins, dirs, tris, out, first, n_rays, T, EPS: tl.constexpr, DET_EPS: tl.constexpr,
                 T_MIN: tl.constexpr, BR: tl.constexpr, BT: tl.constexpr):
    i = tl.program_id(0) * BR + tl.arange(0, BR)
    rmask = i < n_rays
    r = first + i
    ox = tl.load(origins + r * 3, mask=rmask, other=0.0)[:, None]
    oy = tl.load(origins + r * 3 + 1, mask=rmask, other=0.0)[:, None]
    oz = tl.load(origins + r * 3 + 2, mask=rmask, other=0.0)[:, None]
    dx = tl.load(dirs + r * 3, mask=rmask, other=0.0)[:, None]
    dy = tl.load(dirs + r * 3 + 1, mask=rmask, other=0.0)[:, None]
    dz = tl.load(dirs + r * 3 + 2, mask=rmask, other=0.0)[:, None]
    best = tl.full([BR, BT], float("inf"), tl.float32)
    for k0 in range(0, T, BT):
        k = k0 + tl.arange(0, BT)
        kmask = k < T
        v0x = tl.load(tris + k * 9, mask=kmask, other=0.0)[None, :]
        v0y = tl.load(tris + k * 9 + 1, mask=kmask, other=0.0)[None, :]
        v0z = tl.load(tris + k * 9 + 2, mask=kmask, other=0.0)[None, :]
        e1x = tl.load(tris + k * 9 + 3, mask=kmask, other=0.0)[None, :] - v0x
        e1y = tl.load(tris + k * 9 + 4, mask=kmask, other=0.0)[None, :] - v0y
        e1z = tl.load(tris + k * 9 + 5, mask=kmask, other=0.0)[None, :] - v0z
        e2x = tl.load(tris + k * 9 + 6, mask=kmask, other=0.0)[None, :] - v0x
        e2y = tl.load(tris + k * 9 + 7, mask=kmask, other=0.0)[None, :] - v0y
        e2z = tl.load(tris + k * 9 + 8, mask=kmask, other=0.0)[None, :] - v0z
        px = dy * e2z - dz * e2y
        py = dz * e2x - dx * e2z
        pz = dx * e2y - dy * e2x
        det = e1x * px + e1y * py + e1z * pz
        inv = 1.0 / det
        sx, sy, sz = ox - v0x, oy - v0y, oz - v0z
        u = (sx * px + sy * py + sz * pz) * inv
        qx = sy * e1z - sz * e1y
        qy = sz * e1x - sx * e1z
        qz = sx * e1y - sy * e1x
        v = (dx * qx + dy * qy + dz * qz) * inv
        t = (e2x * qx + e2y * qy + e2z * qz) * inv
        hit = (tl.abs(det) > DET_EPS) & (u >= -EPS) & (v >= -EPS) & (u + v <= 1.0 + EPS) & (t > T_MIN)
        hit = hit & kmask[None, :]
        best = tl.minimum(best, tl.where(hit, t, float("inf")))
    tl.store(out + r, tl.min(best, axis=1), mask=rmask)


def run(origins: torch.Tensor, dirs: torch.Tensor, triangles: torch.Tensor) -> torch.Tensor:
    beams, az = origins.shape[0], origins.shape[1]
    T = triangles.shape[0]
    out = torch.empty((beams, az), device=origins.device, dtype=torch.float32)
    BR, BT = 32, 32
    n_rays = beams * az
    _closest_hit[(triton.cdiv(n_rays, BR),)](origins, dirs, triangles, out, 0, n_rays, T, EPS=1e-5, DET_EPS=1e-9,
                                             T_MIN=1e-4, BR=BR, BT=BT, num_warps=8)
    return out
