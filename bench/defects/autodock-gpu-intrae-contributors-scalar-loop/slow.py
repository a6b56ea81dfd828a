"""AutoDock-GPU intramolecular energy: per pose, the AD4.2 terms summed over the intraE contributor list."""
import torch
import triton
import triton.language as tl


@triton.jit
def _intra_energy(coords, contrib, atom_type, charge, reqm, vw_ac, vw_bd, ds_s, ds_v, energy,
                  n_atoms, n_contrib, n_types, smooth, qasp, w_desolv, w_elec):
    pose = tl.program_id(0)
    xyz = coords + pose * n_atoms * 3
    half = 0.5 * smooth
    acc = 0.0
    for c in range(0, n_contrib):
        a1 = tl.load(contrib + 3 * c)
        a2 = tl.load(contrib + 3 * c + 1)
        hb = tl.load(contrib + 3 * c + 2)

        dx = tl.load(xyz + 3 * a1) - tl.load(xyz + 3 * a2)
        dy = tl.load(xyz + 3 * a1 + 1) - tl.load(xyz + 3 * a2 + 1)
        dz = tl.load(xyz + 3 * a1 + 2) - tl.load(xyz + 3 * a2 + 2)
        r2 = dx * dx + dy * dy + dz * dz
        r = tl.sqrt(r2)
        inv_r = 1.0 / r

        t1 = tl.load(atom_type + a1)
        t2 = tl.load(atom_type + a2)

        # van der Waals / H-bond, smoothed distance, 8 A cutoff
        opt = tl.load(reqm + hb * n_types + t1) + tl.load(reqm + hb * n_types + t2)
        s = tl.where(r <= opt - half, r + half, tl.where(r >= opt + half, r - half, opt))
        inv_s2 = 1.0 / (s * s)
        inv_s6 = inv_s2 * inv_s2 * inv_s2
        inv_s_bd = tl.where(hb == 1, inv_s6 * inv_s2 * inv_s2, inv_s6)
        pair = t1 * n_types + t2
        ac = tl.load(vw_ac + pair)
        bd = tl.load(vw_bd + pair)
        e_vdw = ac * inv_s6 * inv_s6 - bd * inv_s_bd

        # desolvation and electrostatics, 20.48 A cutoff
        q1 = tl.load(charge + a1)
        q2 = tl.load(charge + a2)
        s1 = tl.load(ds_s + t1)
        s2 = tl.load(ds_s + t2)
        v1 = tl.load(ds_v + t1)
        v2 = tl.load(ds_v + t2)
        gauss = (12.96 - 0.1063 * r2 * (1.0 - 0.001947 * r2)) / \
            (12.96 + r2 * (0.4137 + r2 * (0.00357 + 0.000112 * r2)))
        e_desolv = ((s1 + qasp * tl.abs(q1)) * v2 + (s2 + qasp * tl.abs(q2)) * v1) * w_desolv * gauss
        shift = r + 1.261
        diel = 1.105 / (shift * shift) + 0.0104
        e_elec = diel * w_elec * q1 * q2 * inv_r

        e = tl.where(r < 8.0, e_vdw, 0.0) + tl.where(r < 20.48, e_desolv + e_elec, 0.0)
        acc += e
    tl.store(energy + pose, acc)


def run(coords, contrib, atom_type, charge, reqm, vw_ac, vw_bd, ds_s, ds_v,
        smooth, qasp, w_desolv, w_elec) -> torch.Tensor:
    n_poses, n_atoms = coords.shape[0], coords.shape[1]
    energy = torch.empty(n_poses, device=coords.device, dtype=torch.float32)
    _intra_energy[(n_poses,)](coords, contrib, atom_type, charge, reqm, vw_ac, vw_bd, ds_s, ds_v, energy,
                              n_atoms, contrib.shape[0], reqm.shape[1], smooth, qasp, w_desolv, w_elec,
                              num_warps=4)
    return energy
