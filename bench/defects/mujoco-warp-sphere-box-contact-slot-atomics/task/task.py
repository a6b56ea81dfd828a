"""Sphere-box narrowphase with contact compaction (MuJoCo Warp collision_primitive.sphere_box + write_contact).

For every sphere-box candidate pair that the broadphase passed (collision_pair [P, 2] = (sphere geom,
box geom), collision_worldid [P]), the sphere centre is taken into the box frame,
center = R' (p_sphere - p_box), clamped to the box half-sizes, and
  - centre outside the box: n = normalize(clamped - center), dist = |clamped - center| - r,
    contact point halfway between the clamped point and the sphere's deepest point;
  - centre inside the box (|clamped - center| <= 1e-6): the nearest of the 6 faces decides the normal,
    dist = -(distance to that face) - r.
A pair makes a contact when dist - margin < 0, margin = max(geom_margin[g1], geom_margin[g2]). Contacts
are compacted into the Data.contact arrays (capacity nconmax = P here) at slots taken from the global
counter ncon, as write_contact does; the frame is make_frame(normal) (rows: normal, and two
orthogonals built as mujoco_warp's math.orthogonals does).

Returns (ncon [1] int32, dist [P] fp32, pos [P, 3] fp32, frame [P, 9] fp32, geom [P, 2] int32,
worldid [P] int32); only the first ncon rows are defined and their order is unspecified, so `check`
compares the contact set, sorted by (worldid, geom), against the reference.
"""
import torch

META = {
    "name": "sphere_box_narrowphase",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"worlds": 4, "pairs": 32},
        "ragged": {"worlds": 5, "pairs": 19},
        "large": {"worlds": 8192, "pairs": 32},
    },
    "baseline_notes": "One lane per candidate pair, 128 pairs per program: gather the sphere and box poses "
                      "(geom_xpos, geom_xmat of the pair's world) and sizes, run sphere_box in fp32, then count "
                      "the program's contacts with tl.sum, reserve that many slots with one tl.atomic_add on "
                      "ncon and give each contact base + exclusive cumsum of the active flags; store dist, "
                      "pos, frame, geom and worldid at the slots. 4 warps, no autotune.",
    "deterministic": False,
}
TINY = 1e-6


def _frame(n: torch.Tensor) -> torch.Tensor:
    a = n / n.norm(dim=-1, keepdim=True)
    y = torch.tensor([0.0, 1.0, 0.0], dtype=a.dtype, device=a.device).expand_as(a)
    z = torch.tensor([0.0, 0.0, 1.0], dtype=a.dtype, device=a.device).expand_as(a)
    b = torch.where(((a[:, 1] > -0.5) & (a[:, 1] < 0.5))[:, None], y, z)
    b = b - a * (a * b).sum(-1, keepdim=True)
    b = b / b.norm(dim=-1, keepdim=True)
    c = torch.cross(a, b, dim=-1)
    return torch.cat([a, b, c], dim=-1)


def _rotations(quat: torch.Tensor) -> torch.Tensor:
    """Row-major rotation matrices [..., 9] of (unnormalised) quaternions (w, x, y, z)."""
    qw, qx, qy, qz = (quat / quat.norm(dim=-1, keepdim=True)).unbind(-1)
    return torch.stack([1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy),
                        2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx),
                        2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)], dim=-1)


def _sphere_box64(geom_xpos, geom_xmat, geom_size, geom_margin, pair, worldid):
    """Every pair's (dist, pos, frame, contact flag, distance to the nearest branch decision), in fp64."""
    w, g1, g2 = worldid.long(), pair[:, 0].long(), pair[:, 1].long()
    sp, bp = geom_xpos.double()[w, g1], geom_xpos.double()[w, g2]
    rot = geom_xmat.double()[w, g2].reshape(-1, 3, 3)
    r = geom_size.double()[g1, 0]
    half = geom_size.double()[g2]
    margin = torch.maximum(geom_margin.double()[g1], geom_margin.double()[g2])
    center = torch.einsum("pji,pj->pi", rot, sp - bp)
    clamped = torch.maximum(-half, torch.minimum(half, center))
    diff = clamped - center
    dist = diff.norm(dim=-1)
    inside = dist <= TINY
    u = diff / dist.clamp(min=1e-300)[:, None]
    # inside: nearest face in the order -x, +x, -y, +y, -z, +z (first minimum wins)
    face = torch.stack([half[:, 0] + center[:, 0], half[:, 0] - center[:, 0],
                        half[:, 1] + center[:, 1], half[:, 1] - center[:, 1],
                        half[:, 2] + center[:, 2], half[:, 2] - center[:, 2]], dim=1).abs()
    closest, k = face.min(dim=1)
    nearest = torch.zeros_like(center)
    nearest[torch.arange(len(k)), k // 2] = torch.where(k % 2 == 1, -1.0, 1.0).double()
    pos_in = center + nearest * ((r - closest) / 2.0)[:, None]
    pos_out = 0.5 * (clamped + center + u * r[:, None])
    local_n = torch.where(inside[:, None], nearest, u)
    cdist = torch.where(inside, -closest - r, dist - r)
    pos = bp + torch.einsum("pij,pj->pi", rot, torch.where(inside[:, None], pos_in, pos_out))
    normal = torch.einsum("pij,pj->pi", rot, local_n)
    frame = _frame(normal)
    face_sorted = face.sort(dim=1).values
    near_branch = torch.stack([(cdist - margin).abs(), torch.where((dist > 0) & (dist < 1e-3), 0.0, 1.0).double(),
                               torch.where(inside, face_sorted[:, 1] - face_sorted[:, 0], torch.ones_like(dist)),
                               ((normal[:, 1] / normal.norm(dim=-1)).abs() - 0.5).abs()], dim=1).min(dim=1).values
    return cdist, pos, frame, cdist - margin < 0, near_branch


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """geom_xpos [W, G, 3], geom_xmat [W, G, 9], geom_size [G, 3], geom_margin [G], collision_pair [P, 2],
    collision_worldid [P]: per world `pairs` sphere geoms (feet, fingertips; r 2-6 cm) each passed by the
    broadphase against one box geom (terrain tiles, steps, objects), sphere centres scattered around
    the box surface from r/2 inside to 2 r outside (about 60 % of the pairs touch)."""
    s = META["sizes"][size]
    n_world, npair = s["worlds"], s["pairs"]
    n_geom = 2 * npair
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    geom_size = torch.zeros(n_geom, 3, dtype=torch.float64)
    geom_size[:npair, 0] = 0.02 + torch.rand(npair, generator=g, dtype=torch.float64) * 0.04
    geom_size[npair:] = 0.05 + torch.rand(npair, 3, generator=g, dtype=torch.float64) * 0.45
    geom_margin = torch.where(torch.rand(n_geom, generator=g) < 0.5, 0.0, 0.005).double()
    geom_xpos = (torch.rand(n_world, n_geom, 3, generator=g, dtype=torch.float64) * 2 - 1) * 2.0
    geom_xmat = _rotations(torch.randn(n_world, n_geom, 4, generator=g, dtype=torch.float64))
    pair = torch.stack([torch.arange(npair), npair + torch.arange(npair)], dim=1).repeat(n_world, 1)
    worldid = torch.arange(n_world).repeat_interleave(npair)
    redo = torch.ones(n_world * npair, dtype=torch.bool)
    for _ in range(50):
        # place each sphere near its box: a random point of a random face, pushed out along the face normal
        idx = redo.nonzero().squeeze(1)
        w, k = worldid[idx], pair[idx, 0]
        geom_xmat[w, npair + k] = _rotations(torch.randn(len(idx), 4, generator=g, dtype=torch.float64))
        half, r = geom_size[npair + k], geom_size[k, 0]
        local = (torch.rand(len(idx), 3, generator=g, dtype=torch.float64) * 2 - 1) * half
        axis = torch.randint(0, 3, (len(idx),), generator=g)
        sign = torch.where(torch.rand(len(idx), generator=g) < 0.5, -1.0, 1.0).double()
        offset = (torch.rand(len(idx), generator=g, dtype=torch.float64) * 2.5 - 0.5) * r
        local[torch.arange(len(idx)), axis] = (half[torch.arange(len(idx)), axis] + offset) * sign
        rot = geom_xmat[w, npair + k].reshape(-1, 3, 3)
        geom_xpos[w, k] = geom_xpos[w, npair + k] + torch.einsum("pij,pj->pi", rot, local)
        # redraw pairs that sit within 1e-3 of a branch decision (contact threshold, inside test,
        # face ties, frame choice), so that fp32 and fp64 take the same branches
        redo = _sphere_box64(geom_xpos, geom_xmat, geom_size, geom_margin, pair, worldid)[4] < 1e-3
        if not redo.any():
            break
    return (geom_xpos.to(device=device, dtype=dt), geom_xmat.to(device=device, dtype=dt),
            geom_size.to(device=device, dtype=dt), geom_margin.to(device=device, dtype=dt),
            pair.to(device=device, dtype=torch.int32), worldid.to(device=device, dtype=torch.int32))


def reference(geom_xpos, geom_xmat, geom_size, geom_margin, collision_pair, collision_worldid) -> tuple:
    """The contacts in pair order (one valid order of many), rows past ncon zero."""
    cdist, pos, frame, active, _ = _sphere_box64(geom_xpos, geom_xmat, geom_size, geom_margin,
                                                 collision_pair, collision_worldid)
    p = collision_pair.shape[0]
    n = int(active.sum())
    dev, dt = geom_xpos.device, geom_xpos.dtype
    out_dist = torch.zeros(p, device=dev, dtype=dt)
    out_pos = torch.zeros(p, 3, device=dev, dtype=dt)
    out_frame = torch.zeros(p, 9, device=dev, dtype=dt)
    out_geom = torch.zeros(p, 2, device=dev, dtype=torch.int32)
    out_world = torch.zeros(p, device=dev, dtype=torch.int32)
    out_dist[:n], out_pos[:n], out_frame[:n] = cdist[active].to(dt), pos[active].to(dt), frame[active].to(dt)
    out_geom[:n], out_world[:n] = collision_pair[active], collision_worldid[active]
    ncon = torch.tensor([n], device=dev, dtype=torch.int32)
    return ncon, out_dist, out_pos, out_frame, out_geom, out_world


def check(inputs: tuple, output: tuple) -> str | None:
    """Same number of contacts, same (worldid, geom) set, and matching dist / pos / frame per contact."""
    ref = reference(*inputs)
    if not isinstance(output, tuple) or len(output) != len(ref):
        return f"expected a tuple of {len(ref)} outputs"
    for i, (o, r) in enumerate(zip(output, ref)):
        if o.shape != r.shape or o.dtype != r.dtype:
            return f"output {i} is {o.dtype}{list(o.shape)}, expected {r.dtype}{list(r.shape)}"
    n, n_ref = int(output[0][0]), int(ref[0][0])
    if n != n_ref:
        return f"ncon = {n}, reference {n_ref}"
    n_geom = inputs[0].shape[1]

    def canonical(out):
        key = (out[5][:n].long() * n_geom + out[4][:n, 0].long()) * n_geom + out[4][:n, 1].long()
        order = torch.argsort(key)
        return key[order], [x[:n][order].double() for x in out[1:4]]

    key, vals = canonical(output)
    key_ref, vals_ref = canonical(ref)
    if not torch.equal(key, key_ref):
        return "the contacts name different (worldid, geom) pairs than the reference"
    tol = META["tolerance"][str(inputs[0].dtype).removeprefix("torch.")]
    for name, v, r in zip(("dist", "pos", "frame"), vals, vals_ref):
        if not torch.allclose(v, r, atol=tol["atol"], rtol=tol["rtol"]):
            return f"contact {name} differs from the reference by {(v - r).abs().max().item():.3g}"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p = s["worlds"] * s["pairs"]
    return {"bytes": p * (12 + 12 + 12 + 36 + 16 + 8) + p // 2 * 64, "flops": 120 * p}
