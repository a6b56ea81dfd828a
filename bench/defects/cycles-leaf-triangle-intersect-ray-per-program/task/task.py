"""Cycles BVH leaf stage of intersect_closest: each ray against the triangles of the BVH2 leaf it reached.

Cycles' BVH2 leaves hold a contiguous range [prim_addr, prim_addr2) of at most 8 triangles
(BVHParams max_triangle_leaf_size = 8); a triangle's corners are fetched through tri_vindex
(three vertex indices per triangle) from the deduplicated vertex positions tri_verts. Every
triangle of the ray's leaf is tested with Cycles' ray_triangle_intersect (util/math_intersect.h,
the Pluecker test after Embree):
    v0, v1, v2 = a - P, b - P, c - P;  e0, e1, e2 = v2 - v0, v0 - v1, v1 - v2
    U = dot(cross(e0, v2 + v0), D);  V = dot(cross(e1, v0 + v1), D);  W = dot(cross(e2, v1 + v2), D)
    UVW = U + V + W;  eps = FLT_EPSILON * |UVW|
    inside when min(U, V, W) >= -eps or max(U, V, W) <= eps
    Ng = 2 * cross(e1, e0);  den = dot(Ng, D) != 0;  t = dot(v0, Ng) / den,  tmin <= t <= tmax
    u = U / UVW,  v = V / UVW
and the closest hit is kept. Returns (t [R] fp32: the hit distance or the ray's tmax,
u [R] fp32, v [R] fp32 (0 on a miss), prim [R] int32: the triangle index or -1).
"""
import torch

META = {
    "name": "cycles_bvh_leaf_triangle_intersect",
    "level": 2,
    "category": "ray-tracing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"rays": 48, "leaves": 12},
        "ragged": {"rays": 77, "leaves": 19},
        "large": {"rays": 1048576, "leaves": 131072},
    },
    "baseline_notes": "Grid cdiv(R, 64); each program takes 64 rays x the 8 leaf slots as a [64, 8] tile: "
                      "ray and leaf loads, vertex-index and vertex gathers under the slot mask, the Pluecker "
                      "test in fp32, min / argmin over the slots, four stores. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_LEAF = 8
FLT_EPSILON = 1.1920928955078125e-07


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _pluecker(P, D, tmin, tmax, a, b, c):
    """Cycles ray_triangle_intersect on broadcast (x, y, z) component tuples:
    (hit, t, u, v, U, V, W, den, |Ng|)."""
    v0 = tuple(a[i] - P[i] for i in range(3))
    v1 = tuple(b[i] - P[i] for i in range(3))
    v2 = tuple(c[i] - P[i] for i in range(3))
    e0 = tuple(v2[i] - v0[i] for i in range(3))
    e1 = tuple(v0[i] - v1[i] for i in range(3))
    e2 = tuple(v1[i] - v2[i] for i in range(3))
    U = _dot(_cross(e0, tuple(v2[i] + v0[i] for i in range(3))), D)
    V = _dot(_cross(e1, tuple(v0[i] + v1[i] for i in range(3))), D)
    W = _dot(_cross(e2, tuple(v1[i] + v2[i] for i in range(3))), D)
    UVW = U + V + W
    eps = FLT_EPSILON * UVW.abs()
    lo = torch.minimum(U, torch.minimum(V, W))
    hi = torch.maximum(U, torch.maximum(V, W))
    inside = (lo >= -eps) | (hi <= eps)
    Ng = tuple(2.0 * x for x in _cross(e1, e0))
    den = _dot(Ng, D)
    safe = torch.where(den == 0, torch.ones_like(den), den)
    t = _dot(v0, Ng) / safe
    hit = inside & (den != 0) & (t >= tmin) & (t <= tmax)
    uvw = torch.where(UVW == 0, torch.ones_like(UVW), UVW)
    return hit, t, U / uvw, V / uvw, U, V, W, den, _dot(Ng, Ng).sqrt()


def _leaf_slots(first, end, corners):
    """Per ray and leaf slot: valid mask, triangle index and the three corners as (x, y, z) tuples;
    corners is [T, 3 corners, 3 coords]."""
    k = torch.arange(MAX_LEAF, device=first.device)
    prim = first[:, None] + k[None, :]
    valid = prim < end[:, None]
    prim = torch.where(valid, prim, torch.zeros_like(prim))
    slot = corners.reshape(-1, 9)[prim.long()]
    corner = lambda j: tuple(slot[..., 3 * j + i] for i in range(3))
    return valid, prim, corner(0), corner(1), corner(2)


def _split(x):
    """[N, 3] -> (x, y, z) columns shaped [N, 1] to broadcast against the leaf slots."""
    return tuple(x[:, i, None] for i in range(3))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ray_P [R, 3], ray_D [R, 3], ray_tmin [R], ray_tmax [R] fp32, ray_leaf [R] int32,
    leaf_prims [L, 2] int32 (prim_addr, prim_addr2), tri_vindex [T, 3] int32, tri_verts [V, 3] fp32."""
    s = META["sizes"][size]
    n_rays, n_leaves = s["rays"], s["leaves"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64

    # Leaves: 1..8 triangles each, laid out contiguously in BVH order; each leaf is a 0.5-unit box
    # of a mesh region somewhere in a 40-unit scene; every triangle has its own three corners.
    count = torch.randint(1, MAX_LEAF + 1, (n_leaves,), generator=g)
    end = torch.cumsum(count, 0)
    first = end - count
    n_tris = int(end[-1])
    centre = (torch.rand(n_leaves, 3, generator=g, dtype=f64) - 0.5) * 40.0
    tri_leaf = torch.repeat_interleave(torch.arange(n_leaves), count)
    corners = centre[tri_leaf][:, None, :] + (torch.rand(n_tris, 3, 3, generator=g, dtype=f64) - 0.5) * 0.5
    # vertex buffer in mesh order (not BVH order): tri_vindex points into a shuffled array
    perm = torch.randperm(3 * n_tris, generator=g)
    verts = torch.empty(3 * n_tris, 3, dtype=f64)
    verts[perm] = corners.reshape(-1, 3)
    verts = verts.to(dt)
    corners = verts[perm.reshape(n_tris, 3)].float()      # what the kernel fetches, for screening in fp32
    tri_vindex = perm.reshape(n_tris, 3).to(torch.int32)
    leaf_prims = torch.stack([first, end], dim=1).to(torch.int32)

    ray_leaf = torch.randint(0, n_leaves, (n_rays,), generator=g)
    P = torch.empty(n_rays, 3, dtype=f64)
    D = torch.empty(n_rays, 3, dtype=f64)
    tmin = torch.zeros(n_rays, dtype=f64)
    tmax = torch.empty(n_rays, dtype=f64)
    todo = torch.arange(n_rays)
    # Rays come from 1..8 units away towards a point of the leaf box; about 30% carry a shorter
    # tmax from a hit in an earlier leaf. Rays whose result would hinge on rounding (passing within
    # 1e-3 of a triangle edge, grazing, hitting a triangle whose |den| < 0.02, t within 1e-3 of tmax,
    # two hits at nearly equal t) are drawn again.
    for _ in range(60):
        m = todo.numel()
        if m == 0:
            break
        c = centre[ray_leaf[todo]]
        away = torch.randn(m, 3, generator=g, dtype=f64)
        away /= away.norm(dim=1, keepdim=True)
        dist = 1.0 + 7.0 * torch.rand(m, generator=g, dtype=f64)
        origin = c + away * dist[:, None]
        target = c + (torch.rand(m, 3, generator=g, dtype=f64) - 0.5) * 0.3
        d = target - origin
        d /= d.norm(dim=1, keepdim=True)
        origin, d = origin.to(dt).to(f64), d.to(dt).to(f64)
        short = torch.rand(m, generator=g) < 0.3
        tm = torch.where(short, dist * (0.9 + 0.4 * torch.rand(m, generator=g, dtype=f64)),
                         torch.full((m,), 100.0, dtype=f64)).to(dt).to(f64)
        P[todo], D[todo], tmax[todo] = origin, d, tm

        leaf = ray_leaf[todo]
        valid, _, a, b, cc = _leaf_slots(first[leaf], end[leaf], corners)
        f32 = lambda x: x.float()
        hit, t, _, _, U, V, W, den, ng = _pluecker(_split(f32(origin)), _split(f32(d)), f32(tmin[todo][:, None]),
                                                   f32(tm[:, None]), a, b, cc)
        tm = f32(tm)
        uvw = (U + V + W).abs()
        near_edge = torch.minimum(U.abs(), torch.minimum(V.abs(), W.abs())) < torch.clamp(1e-3 * uvw, min=1e-5)
        grazing = den.abs() < 1e-2 * ng
        inside = (torch.minimum(U, torch.minimum(V, W)) > 0) | (torch.maximum(U, torch.maximum(V, W)) < 0)
        # a hit on a tiny or edge-on triangle: t, u and v would carry fp32 error far above the tolerance
        faint = inside & (den.abs() < 0.02)
        near_tmax = inside & ((t - tm[:, None]).abs() < 1e-3 * tm[:, None])
        th = torch.where(hit & valid, t, torch.full_like(t, float("inf"))).sort(dim=1).values
        close_pair = ((th[:, 1:] - th[:, :-1]) < 1e-3 * th[:, :-1]).any(dim=1)
        bad = ((near_edge | grazing | faint | near_tmax) & valid).any(dim=1) | close_pair
        todo = todo[bad]
    if todo.numel():
        raise RuntimeError("could not draw unambiguous rays")
    to = lambda x: x.to(dt).to(device)
    return (to(P), to(D), to(tmin), to(tmax), ray_leaf.to(torch.int32).to(device), leaf_prims.to(device),
            tri_vindex.to(device), verts.to(device))


def reference(ray_P, ray_D, ray_tmin, ray_tmax, ray_leaf, leaf_prims, tri_vindex, tri_verts) -> tuple:
    P, D = ray_P.double(), ray_D.double()
    tmin, tmax = ray_tmin.double(), ray_tmax.double()
    leaf = ray_leaf.long()
    first, end = leaf_prims[leaf, 0].long(), leaf_prims[leaf, 1].long()
    valid, prim, a, b, c = _leaf_slots(first, end, tri_verts.double()[tri_vindex.long()])
    hit, t, u, v, *_ = _pluecker(_split(P), _split(D), tmin[:, None], tmax[:, None], a, b, c)
    hit &= valid
    th = torch.where(hit, t, torch.full_like(t, float("inf")))
    best = th.argmin(dim=1, keepdim=True)
    found = hit.any(dim=1)
    pick = lambda x: x.gather(1, best)[:, 0]
    out_t = torch.where(found, pick(t), tmax)
    out_u = torch.where(found, pick(u), torch.zeros_like(tmax))
    out_v = torch.where(found, pick(v), torch.zeros_like(tmax))
    out_prim = torch.where(found, pick(prim), torch.full_like(first, -1))
    dt = ray_P.dtype
    return out_t.to(dt), out_u.to(dt), out_v.to(dt), out_prim.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    r = s["rays"]
    return {"bytes": r * (36 + 8 + 4.5 * 48 + 16), "flops": r * 4.5 * 60}
