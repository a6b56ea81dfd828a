"""Vina grid maps (cache::populate): per brick layer and ligand XS type, sum the Vina terms over the
brick's candidate receptor atoms."""
import torch
import triton
import triton.language as tl

BRICK = 8
BLOCK_R = 16


@triton.jit
def _populate(rec_xyz, rec_type, xs_props, probe_types, brick_start, brick_atoms, maps,
              ox, oy, oz, spacing, nx, ny, nz, nbx, nby,
              BRICK: tl.constexpr, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    k = tl.program_id(1)
    brick = pid // BRICK
    layer = pid % BRICK
    bx = brick % nbx
    by = (brick // nbx) % nby
    bz = brick // (nbx * nby)

    lane = tl.arange(0, BRICK * BRICK)
    ix = bx * BRICK + lane % BRICK
    iy = by * BRICK + lane // BRICK
    iz = bz * BRICK + layer
    inside = (ix < nx) & (iy < ny) & (iz < nz)
    px = ox + ix.to(tl.float32) * spacing
    py = oy + iy.to(tl.float32) * spacing
    pz = oz + iz * spacing

    probe = tl.load(probe_types + k)
    rad_p = tl.load(xs_props + 4 * probe)
    hyd_p = tl.load(xs_props + 4 * probe + 1)
    don_p = tl.load(xs_props + 4 * probe + 2)
    acc_p = tl.load(xs_props + 4 * probe + 3)

    start = tl.load(brick_start + brick)
    end = tl.load(brick_start + brick + 1)
    energy = tl.zeros([BRICK * BRICK], dtype=tl.float32)
    for j0 in range(start, end, BLOCK_R):
        j = j0 + tl.arange(0, BLOCK_R)
        have = j < end
        atom = tl.load(brick_atoms + j, mask=have, other=0)
        ax = tl.load(rec_xyz + 3 * atom, mask=have, other=0.0)
        ay = tl.load(rec_xyz + 3 * atom + 1, mask=have, other=0.0)
        az = tl.load(rec_xyz + 3 * atom + 2, mask=have, other=0.0)
        t = tl.load(rec_type + atom, mask=have, other=0)
        rad_a = tl.load(xs_props + 4 * t, mask=have, other=0.0)
        hyd_a = tl.load(xs_props + 4 * t + 1, mask=have, other=0.0)
        don_a = tl.load(xs_props + 4 * t + 2, mask=have, other=0.0)
        acc_a = tl.load(xs_props + 4 * t + 3, mask=have, other=0.0)

        dx = px[:, None] - ax[None, :]
        dy = py[:, None] - ay[None, :]
        dz = pz - az[None, :]
        r2 = dx * dx + dy * dy + dz * dz
        near = (r2 < 64.0) & have[None, :]
        d = tl.sqrt(r2) - (rad_p + rad_a)[None, :]

        gauss1 = tl.exp(-(d * 2.0) * (d * 2.0))
        gauss2 = tl.exp(-((d - 3.0) * 0.5) * ((d - 3.0) * 0.5))
        repulsion = tl.where(d < 0.0, d * d, 0.0)
        hydrophobic = tl.minimum(tl.maximum(1.5 - d, 0.0), 1.0) * (hyd_p * hyd_a)[None, :]
        hb_pair = tl.where(don_p * acc_a + acc_p * don_a > 0.0, 1.0, 0.0)
        hbond = tl.minimum(tl.maximum(d * (-1.0 / 0.7), 0.0), 1.0) * hb_pair[None, :]
        e = (-0.035579 * gauss1 - 0.005156 * gauss2 + 0.840245 * repulsion
             - 0.035069 * hydrophobic - 0.587439 * hbond)
        energy += tl.sum(tl.where(near, e, 0.0), axis=1)

    out = ((k * nz + iz) * ny + iy) * nx + ix
    tl.store(maps + out, energy, mask=inside)


def run(rec_xyz, rec_type, xs_props, probe_types, brick_start, brick_atoms,
        ox, oy, oz, spacing, nx, ny, nz) -> torch.Tensor:
    n_types = probe_types.shape[0]
    nbx, nby, nbz = triton.cdiv(nx, BRICK), triton.cdiv(ny, BRICK), triton.cdiv(nz, BRICK)
    maps = torch.empty((n_types, nz, ny, nx), device=rec_xyz.device, dtype=torch.float32)
    grid = (nbx * nby * nbz * BRICK, n_types)
    _populate[grid](rec_xyz, rec_type, xs_props, probe_types, brick_start, brick_atoms, maps,
                    ox, oy, oz, spacing, nx, ny, nz, nbx, nby,
                    BRICK=BRICK, BLOCK_R=BLOCK_R, num_warps=4)
    return maps
