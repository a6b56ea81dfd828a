"""Closest-hit ray casting through a flattened BVH (pbrt-v4 BVHAggregate::Intersect, primary-visibility pass).

The BVH is pbrt's depth-first flattened LinearBVHNode array (pMin/pMax bounds; a node's first child is
the next node; leaves hold up to 4 triangles, stored contiguously in leaf order) with one addition for
stackless GPU traversal: every node carries its escape ("miss") link, the node that follows its subtree
in depth-first order (-1 past the end). A ray starts at the root; when its slab test (Bounds3::IntersectP
with invDir and pbrt's gamma(3) widening of tMax, pruned by the closest hit so far) fails, or after a
leaf's triangles are tested (Moller-Trumbore), it follows the escape link, else it steps to the first
child. Returns the closest hit distance t per ray [N] fp32, +inf where the ray misses the mesh.

Inputs: ray origins [N, 3] and unit directions [N, 3] (pinhole camera, one ray per pixel centre),
node bounds [M, 6] (min xyz, max xyz) fp32, node links [M, 3] int32 (escape, first triangle, triangle
count; count 0 for interior nodes), triangles [T, 9] fp32 (v0, v1, v2) in leaf order.
"""
import math

import torch

META = {
    "name": "bvh_closest_hit",
    "level": 3,
    "category": "ray-tracing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"W": 8, "H": 6, "LAT": 6, "LON": 8},
        "ragged": {"W": 11, "H": 7, "LAT": 5, "LON": 9},
        "large": {"W": 1920, "H": 1080, "LAT": 64, "LON": 128},
    },
    "baseline_notes": "One program per 128 rays (one ray per thread, 4 warps); each lane walks the threaded "
                      "BVH with its own current node (masked gathers of bounds, links and up to 4 leaf "
                      "triangles per step) while any lane of the program still has a node to visit; "
                      "1/dir is computed once per ray. No autotune.",
    "deterministic": True,
}
LEAF_SIZE = 4
T_MIN = 1e-4


def _mesh(lat: int, lon: int, g: torch.Generator) -> torch.Tensor:
    """A displaced UV sphere (radius ~1): triangles [T, 3, 3] float64, pole slivers dropped."""
    theta = torch.linspace(0.0, math.pi, lat + 1, dtype=torch.float64)[:, None]
    phi = (torch.arange(lon, dtype=torch.float64) * (2 * math.pi / lon))[None, :]
    bump = 0.06 * torch.sin(6 * theta) * torch.cos(5 * phi)
    bump = bump + 0.015 * torch.sin(theta) * torch.rand(lat + 1, lon, generator=g, dtype=torch.float64)
    r = 1.0 + bump
    p = torch.stack([r * torch.sin(theta) * torch.cos(phi), r * torch.cos(theta),
                     r * torch.sin(theta) * torch.sin(phi)], dim=-1)
    i = torch.arange(lat)[:, None].expand(lat, lon)
    j = torch.arange(lon)[None, :].expand(lat, lon)
    jn = (j + 1) % lon
    a = torch.stack([p[i, j], p[i + 1, j], p[i + 1, jn]], dim=2)[1:]        # degenerate in the top row
    b = torch.stack([p[i, j], p[i + 1, jn], p[i, jn]], dim=2)[:-1]          # degenerate in the bottom row
    return torch.cat([a.reshape(-1, 3, 3), b.reshape(-1, 3, 3)])


def _morton(c: torch.Tensor) -> torch.Tensor:
    lo, hi = c.min(0).values, c.max(0).values
    q = ((c - lo) / (hi - lo).clamp(min=1e-12) * 1023).long().clamp(0, 1023)
    code = torch.zeros(c.shape[0], dtype=torch.long)
    for bit in range(10):
        for axis in range(3):
            code |= ((q[:, axis] >> bit) & 1) << (3 * bit + axis)
    return code


def _build(tris: torch.Tensor) -> tuple:
    """HLBVH-style build: Morton-sort the triangles, split each range at its middle, leaves of <= 4,
    nodes in depth-first order with escape links. Returns (bounds [M, 6], links [M, 3], ordered tris)."""
    tris = tris[torch.argsort(_morton(tris.mean(1)), stable=True)]
    tmin, tmax = tris.min(1).values, tris.max(1).values
    bounds, links = [], []

    def node(lo: int, hi: int) -> None:
        k = len(bounds)
        bounds.append(None)
        links.append(None)
        if hi - lo <= LEAF_SIZE:
            bounds[k] = torch.cat([tmin[lo:hi].min(0).values, tmax[lo:hi].max(0).values])
            links[k] = [0, lo, hi - lo]
        else:
            mid = (lo + hi) // 2
            left = len(bounds)
            node(lo, mid)
            right = len(bounds)
            node(mid, hi)
            bl, br = bounds[left], bounds[right]
            bounds[k] = torch.cat([torch.minimum(bl[:3], br[:3]), torch.maximum(bl[3:], br[3:])])
            links[k] = [0, 0, 0]
        links[k][0] = len(bounds)                                          # escape: after the subtree

    node(0, tris.shape[0])
    links = torch.tensor(links, dtype=torch.int32)
    links[links[:, 0] == len(bounds), 0] = -1
    return torch.stack(bounds), links, tris


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tris64 = _mesh(s["LAT"], s["LON"], g)
    bounds, links, tris64 = _build(tris64.to(dt).double())
    w, h = s["W"], s["H"]
    eye = torch.tensor([0.15, 0.35, 3.4], dtype=torch.float64)
    fwd = -eye / eye.norm()
    right = torch.linalg.cross(fwd, torch.tensor([0.0, 1.0, 0.0], dtype=torch.float64))
    right = right / right.norm()
    up = torch.linalg.cross(right, fwd)
    tan_half = math.tan(math.radians(40.0) / 2)
    px = ((torch.arange(w, dtype=torch.float64) + 0.5) / w * 2 - 1) * tan_half * w / h
    py = (1 - (torch.arange(h, dtype=torch.float64) + 0.5) / h * 2) * tan_half
    d = fwd + px[None, :, None] * right + py[:, None, None] * up
    d = (d / d.norm(dim=-1, keepdim=True)).reshape(-1, 3)
    o = eye.expand_as(d)
    return (o.to(dt).contiguous().to(device), d.to(dt).contiguous().to(device), bounds.to(dt).to(device),
            links.to(device), tris64.reshape(-1, 9).to(dt).to(device))


def reference(origins, dirs, node_bounds, node_links, tris):
    """Brute force: every ray against every triangle (Moller-Trumbore in fp64), the nearest t > T_MIN."""
    v = tris.double().reshape(-1, 3, 3)
    v0, e1, e2 = v[:, 0], v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]
    out = torch.full((origins.shape[0],), float("inf"), dtype=torch.float64, device=origins.device)
    step = max(1, (1 << 23) // v.shape[0])
    for start in range(0, origins.shape[0], step):
        o = origins[start:start + step].double()[:, None, :]
        d = dirs[start:start + step].double()[:, None, :]
        p = torch.linalg.cross(d.expand(-1, v.shape[0], -1), e2[None].expand(d.shape[0], -1, -1))
        det = (e1[None] * p).sum(-1)
        inv = 1.0 / torch.where(det.abs() > 1e-12, det, torch.ones_like(det))
        s = o - v0[None]
        uu = (s * p).sum(-1) * inv
        q = torch.linalg.cross(s, e1[None].expand_as(s))
        vv = (d * q).sum(-1) * inv
        t = (e2[None] * q).sum(-1) * inv
        hit = (det.abs() > 1e-12) & (uu >= 0) & (vv >= 0) & (uu + vv <= 1) & (t > T_MIN)
        out[start:start + step] = torch.where(hit, t, torch.full_like(t, float("inf"))).min(1).values
    return out.to(origins.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, t = s["W"] * s["H"], 2 * s["LAT"] * s["LON"] - 2 * s["LON"]
    return {"bytes": 28 * n + 60 * t, "flops": n * 200 * 4 * math.ceil(math.log2(max(t // 4, 2)))}
