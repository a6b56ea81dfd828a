"""Sphere-box narrowphase (MuJoCo Warp sphere_box) writing compacted contacts at slots taken from ncon."""
import torch
import triton
import triton.language as tl

BLOCK = 128
TINY = 1e-6


@triton.jit
def _normalize(x, y, z):
    inv = 1.0 / tl.sqrt(x * x + y * y + z * z)
    return x * inv, y * inv, z * inv


@triton.jit
def _sphere_box(geom_xpos, geom_xmat, geom_size, geom_margin, collision_pair, collision_worldid,
                npair, ngeom, nconmax, ncon, c_dist, c_pos, c_frame, c_geom, c_world,
                TINY: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = t < npair
    g1 = tl.load(collision_pair + 2 * t, mask=ok, other=0)
    g2 = tl.load(collision_pair + 2 * t + 1, mask=ok, other=0)
    w = tl.load(collision_worldid + t, mask=ok, other=0)
    sphere = (w * ngeom + g1) * 3
    box = (w * ngeom + g2) * 3
    mat = (w * ngeom + g2) * 9
    sx = tl.load(geom_xpos + sphere, mask=ok, other=0.0)
    sy = tl.load(geom_xpos + sphere + 1, mask=ok, other=0.0)
    sz = tl.load(geom_xpos + sphere + 2, mask=ok, other=0.0)
    bx = tl.load(geom_xpos + box, mask=ok, other=0.0)
    by = tl.load(geom_xpos + box + 1, mask=ok, other=0.0)
    bz = tl.load(geom_xpos + box + 2, mask=ok, other=0.0)
    r00 = tl.load(geom_xmat + mat, mask=ok, other=1.0)
    r01 = tl.load(geom_xmat + mat + 1, mask=ok, other=0.0)
    r02 = tl.load(geom_xmat + mat + 2, mask=ok, other=0.0)
    r10 = tl.load(geom_xmat + mat + 3, mask=ok, other=0.0)
    r11 = tl.load(geom_xmat + mat + 4, mask=ok, other=1.0)
    r12 = tl.load(geom_xmat + mat + 5, mask=ok, other=0.0)
    r20 = tl.load(geom_xmat + mat + 6, mask=ok, other=0.0)
    r21 = tl.load(geom_xmat + mat + 7, mask=ok, other=0.0)
    r22 = tl.load(geom_xmat + mat + 8, mask=ok, other=1.0)
    radius = tl.load(geom_size + 3 * g1, mask=ok, other=0.0)
    hx = tl.load(geom_size + 3 * g2, mask=ok, other=1.0)
    hy = tl.load(geom_size + 3 * g2 + 1, mask=ok, other=1.0)
    hz = tl.load(geom_size + 3 * g2 + 2, mask=ok, other=1.0)
    margin = tl.maximum(tl.load(geom_margin + g1, mask=ok, other=0.0), tl.load(geom_margin + g2, mask=ok, other=0.0))

    # sphere centre in the box frame, clamped onto the box
    dx = sx - bx
    dy = sy - by
    dz = sz - bz
    cx = r00 * dx + r10 * dy + r20 * dz
    cy = r01 * dx + r11 * dy + r21 * dz
    cz = r02 * dx + r12 * dy + r22 * dz
    kx = tl.minimum(tl.maximum(cx, -hx), hx)
    ky = tl.minimum(tl.maximum(cy, -hy), hy)
    kz = tl.minimum(tl.maximum(cz, -hz), hz)
    ex = kx - cx
    ey = ky - cy
    ez = kz - cz
    dist = tl.sqrt(ex * ex + ey * ey + ez * ez)
    inv = tl.where(dist > 0.0, 1.0 / dist, 0.0)
    ux = ex * inv
    uy = ey * inv
    uz = ez * inv
    inside = dist <= TINY

    # centre inside: the nearest face (order -x, +x, -y, +y, -z, +z; the first minimum wins)
    closest = 2.0 * (hx + hy + hz)
    face = tl.zeros([BLOCK], dtype=tl.int32)
    f = tl.abs(-hx - cx)
    face = tl.where(closest > f, 0, face)
    closest = tl.minimum(closest, f)
    f = tl.abs(hx - cx)
    face = tl.where(closest > f, 1, face)
    closest = tl.minimum(closest, f)
    f = tl.abs(-hy - cy)
    face = tl.where(closest > f, 2, face)
    closest = tl.minimum(closest, f)
    f = tl.abs(hy - cy)
    face = tl.where(closest > f, 3, face)
    closest = tl.minimum(closest, f)
    f = tl.abs(-hz - cz)
    face = tl.where(closest > f, 4, face)
    closest = tl.minimum(closest, f)
    f = tl.abs(hz - cz)
    face = tl.where(closest > f, 5, face)
    closest = tl.minimum(closest, f)
    nx = tl.where(face == 0, 1.0, tl.where(face == 1, -1.0, 0.0))
    ny = tl.where(face == 2, 1.0, tl.where(face == 3, -1.0, 0.0))
    nz = tl.where(face == 4, 1.0, tl.where(face == 5, -1.0, 0.0))
    half_in = (radius - closest) * 0.5

    # local normal, contact point and distance of either case
    lx = tl.where(inside, nx, ux)
    ly = tl.where(inside, ny, uy)
    lz = tl.where(inside, nz, uz)
    px = tl.where(inside, cx + nx * half_in, 0.5 * (kx + cx + ux * radius))
    py = tl.where(inside, cy + ny * half_in, 0.5 * (ky + cy + uy * radius))
    pz = tl.where(inside, cz + nz * half_in, 0.5 * (kz + cz + uz * radius))
    cdist = tl.where(inside, -closest - radius, dist - radius)

    # back to the world frame; contact frame = make_frame(normal)
    ax, ay, az = _normalize(r00 * lx + r01 * ly + r02 * lz, r10 * lx + r11 * ly + r12 * lz,
                            r20 * lx + r21 * ly + r22 * lz)
    wx = bx + r00 * px + r01 * py + r02 * pz
    wy = by + r10 * px + r11 * py + r12 * pz
    wz = bz + r20 * px + r21 * py + r22 * pz
    use_y = (ay > -0.5) & (ay < 0.5)
    ox = tl.zeros([BLOCK], dtype=tl.float32)
    oy = tl.where(use_y, 1.0, 0.0)
    oz = tl.where(use_y, 0.0, 1.0)
    dot = ax * ox + ay * oy + az * oz
    ox, oy, oz = _normalize(ox - ax * dot, oy - ay * dot, oz - az * dot)
    qx = ay * oz - az * oy
    qy = az * ox - ax * oz
    qz = ax * oy - ay * ox

    # write_contact: one slot of the global contact buffer per active pair
    active = ok & (cdist - margin < 0.0)
    slot = tl.atomic_add(ncon + tl.zeros([BLOCK], dtype=tl.int32), 1, mask=active)
    keep = active & (slot < nconmax)
    tl.store(c_dist + slot, cdist, mask=keep)
    tl.store(c_pos + 3 * slot, wx, mask=keep)
    tl.store(c_pos + 3 * slot + 1, wy, mask=keep)
    tl.store(c_pos + 3 * slot + 2, wz, mask=keep)
    tl.store(c_frame + 9 * slot, ax, mask=keep)
    tl.store(c_frame + 9 * slot + 1, ay, mask=keep)
    tl.store(c_frame + 9 * slot + 2, az, mask=keep)
    tl.store(c_frame + 9 * slot + 3, ox, mask=keep)
    tl.store(c_frame + 9 * slot + 4, oy, mask=keep)
    tl.store(c_frame + 9 * slot + 5, oz, mask=keep)
    tl.store(c_frame + 9 * slot + 6, qx, mask=keep)
    tl.store(c_frame + 9 * slot + 7, qy, mask=keep)
    tl.store(c_frame + 9 * slot + 8, qz, mask=keep)
    tl.store(c_geom + 2 * slot, g1, mask=keep)
    tl.store(c_geom + 2 * slot + 1, g2, mask=keep)
    tl.store(c_world + slot, w, mask=keep)


def run(geom_xpos, geom_xmat, geom_size, geom_margin, collision_pair, collision_worldid) -> tuple:
    npair = collision_pair.shape[0]
    ngeom = geom_xpos.shape[1]
    dev = geom_xpos.device
    nconmax = npair
    ncon = torch.zeros(1, device=dev, dtype=torch.int32)
    c_dist = torch.empty(nconmax, device=dev, dtype=torch.float32)
    c_pos = torch.empty(nconmax, 3, device=dev, dtype=torch.float32)
    c_frame = torch.empty(nconmax, 9, device=dev, dtype=torch.float32)
    c_geom = torch.empty(nconmax, 2, device=dev, dtype=torch.int32)
    c_world = torch.empty(nconmax, device=dev, dtype=torch.int32)
    _sphere_box[(triton.cdiv(npair, BLOCK),)](
        geom_xpos, geom_xmat, geom_size, geom_margin, collision_pair, collision_worldid,
        npair, ngeom, nconmax, ncon, c_dist, c_pos, c_frame, c_geom, c_world,
        TINY=TINY, BLOCK=BLOCK, num_warps=4)
    return ncon, c_dist, c_pos, c_frame, c_geom, c_world
