"""Closest-hit ray casting through pbrt's flattened BVH, stackless (escape-link) traversal."""
import torch
import triton
import triton.language as tl

BLOCK = 128
LEAF = 4
WIDEN = 1.0 + 2.0 * (3 * 2.0 ** -24) / (1 - 3 * 2.0 ** -24)   # pbrt: 1 + 2 * gamma(3)


@triton.jit
def _closest_hit(orig, dirs, bounds, links, tris, t_out, n_rays, widen, t_min,
                 BLOCK: tl.constexpr, LEAF: tl.constexpr):
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = r < n_rays
    ox = tl.load(orig + 3 * r, mask=live, other=0.0)
    oy = tl.load(orig + 3 * r + 1, mask=live, other=0.0)
    oz = tl.load(orig + 3 * r + 2, mask=live, other=0.0)
    dx = tl.load(dirs + 3 * r, mask=live, other=1.0)
    dy = tl.load(dirs + 3 * r + 1, mask=live, other=1.0)
    dz = tl.load(dirs + 3 * r + 2, mask=live, other=1.0)
    ix = 1.0 / dx
    iy = 1.0 / dy
    iz = 1.0 / dz
    t_best = tl.full([BLOCK], float("inf"), dtype=tl.float32)
    node = tl.where(live, 0, -1)
    # Walk until every ray of the program has followed an escape link past the last node.
    while tl.max(node, axis=0) >= 0:
        act = node >= 0
        nb = bounds + 6 * node
        tx0 = (tl.load(nb + 0, mask=act, other=0.0) - ox) * ix
        ty0 = (tl.load(nb + 1, mask=act, other=0.0) - oy) * iy
        tz0 = (tl.load(nb + 2, mask=act, other=0.0) - oz) * iz
        tx1 = (tl.load(nb + 3, mask=act, other=0.0) - ox) * ix
        ty1 = (tl.load(nb + 4, mask=act, other=0.0) - oy) * iy
        tz1 = (tl.load(nb + 5, mask=act, other=0.0) - oz) * iz
        t_near = tl.maximum(tl.maximum(tl.minimum(tx0, tx1), tl.minimum(ty0, ty1)), tl.minimum(tz0, tz1))
        t_far = tl.minimum(tl.minimum(tl.maximum(tx0, tx1), tl.maximum(ty0, ty1)), tl.maximum(tz0, tz1))
        t_far = t_far * widen
        box_hit = act & (t_near <= t_far) & (t_far > 0) & (t_near < t_best)

        escape = tl.load(links + 3 * node, mask=act, other=-1)
        first = tl.load(links + 3 * node + 1, mask=act, other=0)
        count = tl.load(links + 3 * node + 2, mask=act, other=0)
        for k in tl.static_range(LEAF):
            test = box_hit & (k < count)
            tv = tris + 9 * (first + k)
            ax = tl.load(tv + 0, mask=test, other=0.0)
            ay = tl.load(tv + 1, mask=test, other=0.0)
            az = tl.load(tv + 2, mask=test, other=0.0)
            e1x = tl.load(tv + 3, mask=test, other=0.0) - ax
            e1y = tl.load(tv + 4, mask=test, other=0.0) - ay
            e1z = tl.load(tv + 5, mask=test, other=0.0) - az
            e2x = tl.load(tv + 6, mask=test, other=0.0) - ax
            e2y = tl.load(tv + 7, mask=test, other=0.0) - ay
            e2z = tl.load(tv + 8, mask=test, other=0.0) - az
            px = dy * e2z - dz * e2y
            py = dz * e2x - dx * e2z
            pz = dx * e2y - dy * e2x
            det = e1x * px + e1y * py + e1z * pz
            ok = tl.abs(det) > 1e-12
            inv_det = 1.0 / tl.where(ok, det, 1.0)
            sx = ox - ax
            sy = oy - ay
            sz = oz - az
            u = (sx * px + sy * py + sz * pz) * inv_det
            qx = sy * e1z - sz * e1y
            qy = sz * e1x - sx * e1z
            qz = sx * e1y - sy * e1x
            v = (dx * qx + dy * qy + dz * qz) * inv_det
            t = (e2x * qx + e2y * qy + e2z * qz) * inv_det
            hit = test & ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > t_min) & (t < t_best)
            t_best = tl.where(hit, t, t_best)
        step = tl.where(box_hit & (count == 0), node + 1, escape)
        node = tl.where(act, step, node)
    tl.store(t_out + r, t_best, mask=live)


def run(origins, dirs, node_bounds, node_links, tris):
    n = origins.shape[0]
    t_hit = torch.empty(n, device=origins.device, dtype=origins.dtype)
    grid = (triton.cdiv(n, BLOCK),)
    _closest_hit[grid](origins, dirs, node_bounds, node_links, tris, t_hit, n, WIDEN, 1e-4,
                       BLOCK=BLOCK, LEAF=LEAF, num_warps=4)
    return t_hit
