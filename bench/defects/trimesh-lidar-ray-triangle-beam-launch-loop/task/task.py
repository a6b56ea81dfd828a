"""LiDAR range image: closest-hit range of every ray of a sweep against a triangle soup (brute-force Moller-Trumbore).

For each ray (origin o, unit direction d) and triangle (v0, v1, v2): e1 = v1 - v0, e2 = v2 - v0,
p = d x e2, det = e1 . p, s = o - v0, u = (s . p) / det, q = s x e1, v = (d . q) / det,
t = (e2 . q) / det. A hit needs |det| > DET_EPS, u >= -EPS, v >= -EPS, u + v <= 1 + EPS (edges widened
by EPS so that no beam slips through a shared edge) and t > T_MIN; the range is the smallest hit t.
The environment is a closed mesh around the sensor, so every ray hits it. Rays come as a range image
[beams, azimuths] (one row per laser beam); the output is the [beams, azimuths] range image.
"""
import math

import torch

EPS, DET_EPS, T_MIN = 1e-5, 1e-9, 1e-4

META = {
    "name": "lidar_ray_triangle_range",
    "level": 2,
    "category": "graphics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"beams": 8, "azimuths": 16, "n_lat": 5, "n_lon": 12},
        "ragged": {"beams": 7, "azimuths": 29, "n_lat": 6, "n_lon": 13},
        "large": {"beams": 128, "azimuths": 1024, "n_lat": 33, "n_lon": 64},
    },
    "baseline_notes": "One launch over the whole sweep: one program per 32 rays looping over the triangle list "
                      "in 32-triangle tiles, fp32 Moller-Trumbore on the 32x32 tile with a running min per tile "
                      "column, reduced at the end; 8 warps, no autotune.",
    "deterministic": True,
}


def _room_mesh(n_lat: int, n_lon: int, g: torch.Generator) -> torch.Tensor:
    """A closed lat-long mesh r(theta, phi) around the origin: [2 * n_lon * (n_lat - 1), 3, 3]."""
    a = torch.rand(4, generator=g) * 6.28
    theta = torch.linspace(0, math.pi, n_lat + 1)[:, None]
    phi = torch.arange(n_lon)[None, :] * (2 * math.pi / n_lon)
    r = (4.0 + 0.35 * torch.sin(3 * phi + a[0]) * torch.sin(2 * theta + a[1])
         + 0.2 * torch.cos(5 * phi + a[2]) * torch.sin(theta) ** 2 + 0.15 * torch.cos(2 * theta + a[3]))
    verts = torch.stack([r * torch.sin(theta) * torch.cos(phi), r * torch.cos(theta),
                         r * torch.sin(theta) * torch.sin(phi)], dim=-1)        # [n_lat + 1, n_lon, 3]
    tris = []
    for i in range(n_lat):
        for j in range(n_lon):
            k = (j + 1) % n_lon
            if i > 0:
                tris.append(torch.stack([verts[i, j], verts[i, k], verts[i + 1, j]]))
            if i < n_lat - 1:
                tris.append(torch.stack([verts[i, k], verts[i + 1, k], verts[i + 1, j]]))
    return torch.stack(tris)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """origins [beams, az, 3] (the sensor moves 0.2 along x during the sweep), unit directions [beams, az, 3],
    triangles [T, 3, 3]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    tris = _room_mesh(s["n_lat"], s["n_lon"], g)
    beams, az = s["beams"], s["azimuths"]
    elev = torch.linspace(-22.5, 22.5, beams)[:, None] * (math.pi / 180) + (torch.rand(beams, 1, generator=g) - 0.5) * 1e-3
    azim = (torch.arange(az)[None, :] + 0.5) * (2 * math.pi / az) + (torch.rand(1, 1, generator=g) - 0.5) * 0.1
    dirs = torch.stack([torch.cos(elev) * torch.cos(azim), torch.sin(elev).expand(beams, az),
                        torch.cos(elev) * torch.sin(azim)], dim=-1)
    sweep = (torch.arange(az)[None, :].expand(beams, az) + 0.5) / az
    origins = torch.stack([0.2 * sweep - 0.1, torch.full_like(sweep, 0.3), torch.full_like(sweep, -0.05)], dim=-1)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (origins.to(device=device, dtype=dt), dirs.to(device=device, dtype=dt),
            tris.to(device=device, dtype=dt).contiguous())


def reference(origins: torch.Tensor, dirs: torch.Tensor, triangles: torch.Tensor) -> torch.Tensor:
    tri = triangles.double()
    v0, e1, e2 = tri[None, :, 0], (tri[:, 1] - tri[:, 0])[None], (tri[:, 2] - tri[:, 0])[None]
    out = []
    for o, d in zip(origins.double().reshape(-1, 3).split(4096), dirs.double().reshape(-1, 3).split(4096)):
        o, d = o[:, None, :], d[:, None, :].expand(-1, tri.shape[0], -1)
        p = torch.cross(d, e2.expand_as(d), dim=-1)
        det = (e1 * p).sum(-1)
        s = o - v0
        u = (s * p).sum(-1) / det
        q = torch.cross(s, e1.expand_as(s), dim=-1)
        v = (d * q).sum(-1) / det
        t = (e2 * q).sum(-1) / det
        hit = (det.abs() > DET_EPS) & (u >= -EPS) & (v >= -EPS) & (u + v <= 1 + EPS) & (t > T_MIN)
        out.append(torch.where(hit, t, torch.full_like(t, float("inf"))).amin(dim=1))
    return torch.cat(out).reshape(origins.shape[:2]).to(origins.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, tris = s["beams"] * s["azimuths"], 2 * s["n_lon"] * s["n_lat"] - 2 * s["n_lon"]
    return {"bytes": 4 * (7 * n + 9 * tris), "flops": 50 * n * tris}
