"""AutoDock-GPU genotype -> phenotype: torsion rotations along the rotation list, then the general
rotation (with the run's reference orientation) and the translation."""
import torch
import triton
import triton.language as tl

BLOCK_I = 2
DEG_TO_RAD = 0.017453292519943295


@triton.jit
def _qrot(vx, vy, vz, qx, qy, qz, qw):
    # AutoDock-GPU quaternion_rotate: z = 2 (q x v); v + w z + q x z
    zx = 2.0 * (qy * vz - vy * qz)
    zy = 2.0 * (vx * qz - qx * vz)
    zz = 2.0 * (qx * vy - vx * qy)
    rx = vx + zx * qw + (qy * zz - zy * qz)
    ry = vy + zy * qw + (zx * qz - qx * zz)
    rz = vz + zz * qw + (qx * zy - zx * qy)
    return rx, ry, rz


@triton.jit
def _calc_coords(genotypes, ref_xyz, ref_quat, bond_unit, bond_point, moving, coords,
                 pop, n_atoms, n_tors, n_genes, deg_to_rad,
                 BLOCK_I: tl.constexpr, BLOCK_A: tl.constexpr):
    run = tl.program_id(0)
    # the run's reference orientation
    rqx = tl.load(ref_quat + 4 * run)
    rqy = tl.load(ref_quat + 4 * run + 1)
    rqz = tl.load(ref_quat + 4 * run + 2)
    rqw = tl.load(ref_quat + 4 * run + 3)
    atom = tl.arange(0, BLOCK_A)
    a_ok = atom < n_atoms
    x0 = tl.load(ref_xyz + 3 * atom, mask=a_ok, other=0.0)
    y0 = tl.load(ref_xyz + 3 * atom + 1, mask=a_ok, other=0.0)
    z0 = tl.load(ref_xyz + 3 * atom + 2, mask=a_ok, other=0.0)

    ind = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = ind < pop
    gene = genotypes + (run * pop + ind) * n_genes
    x = tl.zeros([BLOCK_I, BLOCK_A], dtype=tl.float32) + x0[None, :]
    y = tl.zeros([BLOCK_I, BLOCK_A], dtype=tl.float32) + y0[None, :]
    z = tl.zeros([BLOCK_I, BLOCK_A], dtype=tl.float32) + z0[None, :]

    # rotatable bonds, outermost first
    for t in range(n_tors):
        half = tl.load(gene + 6 + t, mask=i_ok, other=0.0) * (0.5 * deg_to_rad)
        s = tl.sin(half)[:, None]
        w = tl.cos(half)[:, None]
        ux = tl.load(bond_unit + 3 * t)
        uy = tl.load(bond_unit + 3 * t + 1)
        uz = tl.load(bond_unit + 3 * t + 2)
        mx = tl.load(bond_point + 3 * t)
        my = tl.load(bond_point + 3 * t + 1)
        mz = tl.load(bond_point + 3 * t + 2)
        sel = (tl.load(moving + t * n_atoms + atom, mask=a_ok, other=0) != 0)[None, :]
        rx, ry, rz = _qrot(x - mx, y - my, z - mz, s * ux, s * uy, s * uz, w)
        x = tl.where(sel, rx + mx, x)
        y = tl.where(sel, ry + my, y)
        z = tl.where(sel, rz + mz, z)

    # general rotation (genotype orientation times the run's reference orientation) and translation
    phi = tl.load(gene + 3, mask=i_ok, other=0.0) * deg_to_rad
    theta = tl.load(gene + 4, mask=i_ok, other=0.0) * deg_to_rad
    alpha = tl.load(gene + 5, mask=i_ok, other=0.0) * deg_to_rad
    s2 = tl.sin(0.5 * alpha)
    st = tl.sin(theta)
    gx = s2 * st * tl.cos(phi)
    gy = s2 * st * tl.sin(phi)
    gz = s2 * tl.cos(theta)
    gw = tl.cos(0.5 * alpha)
    qx = gw * rqx + gx * rqw + gy * rqz - gz * rqy
    qy = gw * rqy - gx * rqz + gy * rqw + gz * rqx
    qz = gw * rqz + gx * rqy - gy * rqx + gz * rqw
    qw = gw * rqw - gx * rqx - gy * rqy - gz * rqz
    tx = tl.load(gene, mask=i_ok, other=0.0)[:, None]
    ty = tl.load(gene + 1, mask=i_ok, other=0.0)[:, None]
    tz = tl.load(gene + 2, mask=i_ok, other=0.0)[:, None]
    rx, ry, rz = _qrot(x, y, z, qx[:, None], qy[:, None], qz[:, None], qw[:, None])

    out = coords + ((run * pop + ind)[:, None] * n_atoms + atom[None, :]) * 3
    ok = i_ok[:, None] & a_ok[None, :]
    tl.store(out, rx + tx, mask=ok)
    tl.store(out + 1, ry + ty, mask=ok)
    tl.store(out + 2, rz + tz, mask=ok)


def run(genotypes, ref_xyz, ref_quat, bond_unit, bond_point, moving, n_runs) -> torch.Tensor:
    n_ind, n_genes = genotypes.shape
    n_atoms = ref_xyz.shape[0]
    pop = n_ind // n_runs
    coords = torch.empty((n_ind, n_atoms, 3), device=genotypes.device, dtype=torch.float32)
    grid = (n_runs, triton.cdiv(pop, BLOCK_I))
    _calc_coords[grid](genotypes, ref_xyz, ref_quat, bond_unit, bond_point, moving, coords,
                       pop, n_atoms, n_genes - 6, n_genes, DEG_TO_RAD,
                       BLOCK_I=BLOCK_I, BLOCK_A=triton.next_power_of_2(n_atoms), num_warps=4)
    return coords
