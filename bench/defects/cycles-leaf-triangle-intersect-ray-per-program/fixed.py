"""Cycles BVH2 leaf intersection: each ray against the (at most 8) triangles of its leaf, closest hit kept."""
import torch
import triton
import triton.language as tl

MAX_LEAF = 8      # BVHParams max_triangle_leaf_size
BLOCK_R = 64
FLT_EPSILON = tl.constexpr(1.1920928955078125e-07)


@triton.jit
def _intersect_leaf(ray_P, ray_D, ray_tmin, ray_tmax, ray_leaf, leaf_prims, tri_vindex, tri_verts,
                    isect_t, isect_u, isect_v, isect_prim, n_rays,
                    MAX_LEAF: tl.constexpr, BLOCK_R: tl.constexpr):
    ray = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    live = ray < n_rays
    px = tl.load(ray_P + 3 * ray, mask=live, other=0.0)[:, None]
    py = tl.load(ray_P + 3 * ray + 1, mask=live, other=0.0)[:, None]
    pz = tl.load(ray_P + 3 * ray + 2, mask=live, other=0.0)[:, None]
    dx = tl.load(ray_D + 3 * ray, mask=live, other=0.0)[:, None]
    dy = tl.load(ray_D + 3 * ray + 1, mask=live, other=0.0)[:, None]
    dz = tl.load(ray_D + 3 * ray + 2, mask=live, other=0.0)[:, None]
    tmin = tl.load(ray_tmin + ray, mask=live, other=0.0)
    tmax = tl.load(ray_tmax + ray, mask=live, other=0.0)
    leaf = tl.load(ray_leaf + ray, mask=live, other=0)
    prim_addr = tl.load(leaf_prims + 2 * leaf, mask=live, other=0)
    prim_addr2 = tl.load(leaf_prims + 2 * leaf + 1, mask=live, other=0)

    slot = tl.arange(0, MAX_LEAF)
    prim = prim_addr[:, None] + slot[None, :]
    valid = live[:, None] & (prim < prim_addr2[:, None])
    ia = tl.load(tri_vindex + 3 * prim, mask=valid, other=0)
    ib = tl.load(tri_vindex + 3 * prim + 1, mask=valid, other=0)
    ic = tl.load(tri_vindex + 3 * prim + 2, mask=valid, other=0)
    # corners relative to the ray origin
    v0x = tl.load(tri_verts + 3 * ia, mask=valid, other=0.0) - px
    v0y = tl.load(tri_verts + 3 * ia + 1, mask=valid, other=0.0) - py
    v0z = tl.load(tri_verts + 3 * ia + 2, mask=valid, other=0.0) - pz
    v1x = tl.load(tri_verts + 3 * ib, mask=valid, other=0.0) - px
    v1y = tl.load(tri_verts + 3 * ib + 1, mask=valid, other=0.0) - py
    v1z = tl.load(tri_verts + 3 * ib + 2, mask=valid, other=0.0) - pz
    v2x = tl.load(tri_verts + 3 * ic, mask=valid, other=0.0) - px
    v2y = tl.load(tri_verts + 3 * ic + 1, mask=valid, other=0.0) - py
    v2z = tl.load(tri_verts + 3 * ic + 2, mask=valid, other=0.0) - pz

    e0x = v2x - v0x
    e0y = v2y - v0y
    e0z = v2z - v0z
    e1x = v0x - v1x
    e1y = v0y - v1y
    e1z = v0z - v1z
    e2x = v1x - v2x
    e2y = v1y - v2y
    e2z = v1z - v2z

    # U = dot(cross(e0, v2 + v0), D), V = dot(cross(e1, v0 + v1), D), W = dot(cross(e2, v1 + v2), D)
    sx = v2x + v0x
    sy = v2y + v0y
    sz = v2z + v0z
    U = (e0y * sz - e0z * sy) * dx + (e0z * sx - e0x * sz) * dy + (e0x * sy - e0y * sx) * dz
    sx = v0x + v1x
    sy = v0y + v1y
    sz = v0z + v1z
    V = (e1y * sz - e1z * sy) * dx + (e1z * sx - e1x * sz) * dy + (e1x * sy - e1y * sx) * dz
    sx = v1x + v2x
    sy = v1y + v2y
    sz = v1z + v2z
    W = (e2y * sz - e2z * sy) * dx + (e2z * sx - e2x * sz) * dy + (e2x * sy - e2y * sx) * dz

    UVW = U + V + W
    eps = FLT_EPSILON * tl.abs(UVW)
    lo = tl.minimum(U, tl.minimum(V, W))
    hi = tl.maximum(U, tl.maximum(V, W))
    inside = (lo >= -eps) | (hi <= eps)

    # Ng = 2 cross(e1, e0), den = dot(Ng, D), t = dot(v0, Ng) / den
    ngx = 2.0 * (e1y * e0z - e1z * e0y)
    ngy = 2.0 * (e1z * e0x - e1x * e0z)
    ngz = 2.0 * (e1x * e0y - e1y * e0x)
    den = ngx * dx + ngy * dy + ngz * dz
    safe = tl.where(den == 0.0, 1.0, den)
    t = (v0x * ngx + v0y * ngy + v0z * ngz) / safe
    hit = valid & inside & (den != 0.0) & (t >= tmin[:, None]) & (t <= tmax[:, None])

    t_hit = tl.where(hit, t, float("inf"))
    best_t = tl.min(t_hit, axis=1)
    best = tl.argmin(t_hit, axis=1)
    found = best_t <= tmax
    pick = slot[None, :] == best[:, None]
    inv = 1.0 / tl.where(UVW == 0.0, 1.0, UVW)
    u = tl.sum(tl.where(pick, U * inv, 0.0), axis=1)
    v = tl.sum(tl.where(pick, V * inv, 0.0), axis=1)
    hit_prim = tl.sum(tl.where(pick, prim, 0), axis=1)

    tl.store(isect_t + ray, tl.where(found, best_t, tmax), mask=live)
    tl.store(isect_u + ray, tl.where(found, u, 0.0), mask=live)
    tl.store(isect_v + ray, tl.where(found, v, 0.0), mask=live)
    tl.store(isect_prim + ray, tl.where(found, hit_prim, -1), mask=live)


def run(ray_P, ray_D, ray_tmin, ray_tmax, ray_leaf, leaf_prims, tri_vindex, tri_verts) -> tuple:
    n_rays = ray_P.shape[0]
    isect_t = torch.empty(n_rays, device=ray_P.device, dtype=ray_P.dtype)
    isect_u = torch.empty_like(isect_t)
    isect_v = torch.empty_like(isect_t)
    isect_prim = torch.empty(n_rays, device=ray_P.device, dtype=torch.int32)
    grid = (triton.cdiv(n_rays, BLOCK_R),)
    _intersect_leaf[grid](ray_P, ray_D, ray_tmin, ray_tmax, ray_leaf, leaf_prims, tri_vindex, tri_verts,
                          isect_t, isect_u, isect_v, isect_prim, n_rays,
                          MAX_LEAF=MAX_LEAF, BLOCK_R=BLOCK_R, num_warps=4)
    return isect_t, isect_u, isect_v, isect_prim
