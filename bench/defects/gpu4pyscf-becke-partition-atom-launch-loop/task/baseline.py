"""Becke partition weights (Treutler-adjusted), GPU4PySCF get_partition: w = vol * P_owner / sum_A P_A."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _becke_weights(coords, vol, atom_of, atom_xyz, rab_inv, a_fac, weights,
                   first, count, natm, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < count
    g = first + offs
    gx = tl.load(coords + 3 * g, mask=ok, other=0.0)
    gy = tl.load(coords + 3 * g + 1, mask=ok, other=0.0)
    gz = tl.load(coords + 3 * g + 2, mask=ok, other=0.0)
    owner = tl.load(atom_of + g, mask=ok, other=-1)
    p_sum = tl.zeros([BLOCK], dtype=tl.float64)
    p_own = tl.zeros([BLOCK], dtype=tl.float64)
    for ia in range(natm):
        dx = gx - tl.load(atom_xyz + 3 * ia)
        dy = gy - tl.load(atom_xyz + 3 * ia + 1)
        dz = gz - tl.load(atom_xyz + 3 * ia + 2)
        r_a = tl.sqrt(dx * dx + dy * dy + dz * dz)
        p_a = tl.full([BLOCK], 1.0, tl.float64)
        for ib in range(natm):
            ex = gx - tl.load(atom_xyz + 3 * ib)
            ey = gy - tl.load(atom_xyz + 3 * ib + 1)
            ez = gz - tl.load(atom_xyz + 3 * ib + 2)
            r_b = tl.sqrt(ex * ex + ey * ey + ez * ez)
            mu = (r_a - r_b) * tl.load(rab_inv + ia * natm + ib)
            mu += tl.load(a_fac + ia * natm + ib) * (mu * mu - 1.0)
            mu = (3.0 - mu * mu) * mu * 0.5
            mu = (3.0 - mu * mu) * mu * 0.5
            mu = (3.0 - mu * mu) * mu * 0.5
            p_a *= 0.5 * (1.0 - mu)
        p_sum += p_a
        p_own = tl.where(owner == ia, p_a, p_own)
    v = tl.load(vol + g, mask=ok, other=0.0)
    tl.store(weights + g, v * p_own / p_sum, mask=ok)


def run(coords, vol, atom_of, atom_xyz, rab_inv, a_fac, counts):
    natm = atom_xyz.shape[0]
    ngrids = coords.shape[0]
    weights = torch.empty_like(vol)
    # every point already carries its owner atom: all atoms' grids in one launch
    _becke_weights[(triton.cdiv(ngrids, BLOCK),)](coords, vol, atom_of, atom_xyz, rab_inv, a_fac, weights,
                                                  0, ngrids, natm, BLOCK=BLOCK, num_warps=4)
    return weights
