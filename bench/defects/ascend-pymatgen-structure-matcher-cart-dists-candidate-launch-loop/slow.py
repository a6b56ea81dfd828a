"""StructureMatcher candidate scoring: periodic shortest squared distances (pbc_shortest_vectors, return_d2)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _cart_dists_kernel(lat_ptr, fa_ptr, fb_ptr, spa_ptr, spb_ptr, ftol_ptr, d2_ptr,
                       NA, NBS, BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_i = tl.cdiv(NA, BI)
    tiles_j = tl.cdiv(NBS, BJ)
    for t in range(pid, tiles_i * tiles_j, nprog):
        ti = t // tiles_j
        tj = t - ti * tiles_j
        l00 = tl.load(lat_ptr + 0)
        l01 = tl.load(lat_ptr + 1)
        l02 = tl.load(lat_ptr + 2)
        l10 = tl.load(lat_ptr + 3)
        l11 = tl.load(lat_ptr + 4)
        l12 = tl.load(lat_ptr + 5)
        l20 = tl.load(lat_ptr + 6)
        l21 = tl.load(lat_ptr + 7)
        l22 = tl.load(lat_ptr + 8)
        tx = tl.load(ftol_ptr + 0)
        ty = tl.load(ftol_ptr + 1)
        tz = tl.load(ftol_ptr + 2)

        ri = ti * BI + tl.arange(0, BI)
        cj = tj * BJ + tl.arange(0, BJ)
        mi = ri < NA
        mj = cj < NBS
        ax = tl.load(fa_ptr + ri, mask=mi, other=0.0)
        ay = tl.load(fa_ptr + NA + ri, mask=mi, other=0.0)
        az = tl.load(fa_ptr + 2 * NA + ri, mask=mi, other=0.0)
        bx = tl.load(fb_ptr + cj, mask=mj, other=0.0)
        by = tl.load(fb_ptr + NBS + cj, mask=mj, other=0.0)
        bz = tl.load(fb_ptr + 2 * NBS + cj, mask=mj, other=0.0)
        sa = tl.load(spa_ptr + ri, mask=mi, other=-1)
        sb = tl.load(spb_ptr + cj, mask=mj, other=-2)

        # fractional tolerance on the raw difference (pbc_diff), per lattice direction
        dfx = bx[None, :] - ax[:, None]
        dfy = by[None, :] - ay[:, None]
        dfz = bz[None, :] - az[:, None]
        ok = tl.abs(dfx - tl.floor(dfx + 0.5)) <= tx
        ok = ok & (tl.abs(dfy - tl.floor(dfy + 0.5)) <= ty)
        ok = ok & (tl.abs(dfz - tl.floor(dfz + 0.5)) <= tz)
        ok = ok & (sa[:, None] == sb[None, :])

        # wrap into the cell and go Cartesian (rows of the lattice are the cell vectors)
        ax = ax - tl.floor(ax)
        ay = ay - tl.floor(ay)
        az = az - tl.floor(az)
        bx = bx - tl.floor(bx)
        by = by - tl.floor(by)
        bz = bz - tl.floor(bz)
        cax = ax * l00 + ay * l10 + az * l20
        cay = ax * l01 + ay * l11 + az * l21
        caz = ax * l02 + ay * l12 + az * l22
        cbx = bx * l00 + by * l10 + bz * l20
        cby = bx * l01 + by * l11 + bz * l21
        cbz = bx * l02 + by * l12 + bz * l22
        px = cbx[None, :] - cax[:, None]
        py = cby[None, :] - cay[:, None]
        pz = cbz[None, :] - caz[:, None]

        best = tl.full((BI, BJ), float("inf"), tl.float32)
        for n0 in tl.static_range(3):
            for n1 in tl.static_range(3):
                for n2 in tl.static_range(3):
                    sx = (n0 - 1) * l00 + (n1 - 1) * l10 + (n2 - 1) * l20
                    sy = (n0 - 1) * l01 + (n1 - 1) * l11 + (n2 - 1) * l21
                    sz = (n0 - 1) * l02 + (n1 - 1) * l12 + (n2 - 1) * l22
                    dx = px + sx
                    dy = py + sy
                    dz = pz + sz
                    best = tl.minimum(best, dx * dx + dy * dy + dz * dz)

        d2 = tl.where(ok, best, 1e20)
        out = d2_ptr + ri[:, None] * NBS + cj[None, :]
        tl.store(out, d2, mask=mi[:, None] & mj[None, :])


def run(lattice: torch.Tensor, fa: torch.Tensor, fb: torch.Tensor, species_a: torch.Tensor,
        species_b: torch.Tensor, ftol: torch.Tensor) -> torch.Tensor:
    nc, _, na = fa.shape
    nbs = fb.shape[2]
    d2 = torch.empty((nc, na, nbs), device=fa.device, dtype=fa.dtype)
    BI, BJ = 32, 32
    work = triton.cdiv(na, BI) * triton.cdiv(nbs, BJ)
    grid = (min(_VECTOR_CORES, work),)
    # one candidate (supercell lattice x translation) at a time, as _strict_match walks them
    for c in range(nc):
        _cart_dists_kernel[grid](lattice[c], fa[c], fb[c], species_a, species_b, ftol[c], d2[c],
                                 na, nbs, BI=BI, BJ=BJ)
    return d2
