"""AutoDock-GPU genotype -> phenotype ("CALCULATING ATOMIC POSITIONS AFTER ROTATIONS" of gpu_calc_energy).

Every individual of the LGA population (n_runs runs x pop_size individuals, run-major) carries a genotype
[tx, ty, tz, phi, theta, genrotangle, tor_0 .. tor_{T-1}] (translation in A, angles in degrees). Its
ligand pose is built from the reference coordinates as AutoDock-GPU's rotation list does it:

  1. for each rotatable bond t in rotation-list order (outermost bonds first), every atom on the bond's
     moving side is rotated by tor_t about the bond axis: p <- rot(p - m_t, q_t) + m_t with the
     quaternion q_t = (sin(tor_t / 2) u_t, cos(tor_t / 2)), u_t the bond's unit vector and m_t a point on
     it (both in the reference frame: bonds are visited before anything moves their atoms);
  2. every atom is rotated by the general rotation composed with the run's reference orientation,
     q = q_gen * q_ref[run], q_gen = (sin(a/2) sin(theta) cos(phi), sin(a/2) sin(theta) sin(phi),
     sin(a/2) cos(theta), cos(a/2)) with a = genrotangle, and moved by the translation genes.

rot(v, q) is quaternion_rotate: z = 2 (q.xyz x v); v + q.w z + q.xyz x z. Returns coords [P, N, 3] fp32.
"""
import math

import torch

META = {
    "name": "autodock_gpu_calc_coords",
    "level": 2,
    "category": "molecular-docking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"RUNS": 2, "POP": 5, "N": 12, "T": 3},
        "ragged": {"RUNS": 3, "POP": 7, "N": 19, "T": 5},
        "large": {"RUNS": 20, "POP": 150, "N": 48, "T": 10},
    },
    "baseline_notes": "Grid (n_runs, cdiv(pop_size, 2)): each program loads its run's reference quaternion "
                      "and builds a [2 individuals, next_pow2(N) atoms] tile: the torsion loop applies each "
                      "bond's quaternion rotation to the atoms its moving mask selects, then the composed "
                      "general rotation and translation, one store per coordinate; 4 warps, no autotune.",
    "deterministic": True,
}

DEG = math.pi / 180.0


def _ligand(n: int, n_tors: int, g: torch.Generator) -> tuple:
    """A branched ligand (1.5 A bonds) and n_tors rotatable bonds, each with its moving side."""
    pos = [torch.zeros(3, dtype=torch.float64)]
    parent = [-1]
    degree = [0]
    while len(pos) < n:
        p = int(torch.randint(0, len(pos), (1,), generator=g))
        if degree[p] >= 3:
            continue
        for _ in range(200):
            v = torch.randn(3, generator=g, dtype=torch.float64)
            x = pos[p] + 1.5 * v / v.norm()
            if all((x - q).norm() > 2.4 for i, q in enumerate(pos) if i != p):
                break
        else:
            continue
        pos.append(x)
        parent.append(p)
        degree.append(1)
        degree[p] += 1
    xyz = torch.stack(pos)
    children = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(i)

    def subtree(i: int) -> list:
        out, stack = [], [i]
        while stack:
            a = stack.pop()
            out.append(a)
            stack += children[a]
        return out

    depth = [0] * n
    for i in range(1, n):
        depth[i] = depth[parent[i]] + 1
    # rotatable: bonds parent(c) -> c where c has children (not a terminal atom)
    bonds = [c for c in range(1, n) if children[c]]
    perm = torch.randperm(len(bonds), generator=g).tolist()
    chosen = sorted((bonds[i] for i in perm[:n_tors]), key=lambda c: -depth[c])  # outermost first
    moving = torch.zeros(len(chosen), n, dtype=torch.int8)
    unit = torch.empty(len(chosen), 3, dtype=torch.float64)
    move = torch.empty(len(chosen), 3, dtype=torch.float64)
    for t, c in enumerate(chosen):
        p = parent[c]
        side = subtree(c)
        side.remove(c)
        moving[t, side] = 1
        u = xyz[c] - xyz[p]
        unit[t] = u / u.norm()
        move[t] = xyz[p]
    return xyz, unit, move, moving


def _qmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    ax, ay, az, aw = a.unbind(-1)
    bx, by, bz, bw = b.unbind(-1)
    return torch.stack([aw * bx + ax * bw + ay * bz - az * by,
                        aw * by - ax * bz + ay * bw + az * bx,
                        aw * bz + ax * by - ay * bx + az * bw,
                        aw * bw - ax * bx - ay * by - az * bz], dim=-1)


def _qrot(v: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    u, w = q[..., :3], q[..., 3:]
    z = 2.0 * torch.cross(u.expand_as(v), v, dim=-1)
    return v + w * z + torch.cross(u.expand_as(z), z, dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """genotypes [RUNS*POP, 6+T], ref_xyz [N, 3] (centred), ref_quat [RUNS, 4] (x, y, z, w),
    bond unit vectors [T, 3], bond points [T, 3], moving masks [T, N] int8, n_runs."""
    s = META["sizes"][size]
    runs, pop, n, n_tors = s["RUNS"], s["POP"], s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xyz, unit, move, moving = _ligand(n, n_tors, g)
    centre = xyz.mean(0)
    xyz, move = xyz - centre, move - centre
    p_n = runs * pop
    geno = torch.empty(p_n, 6 + n_tors, dtype=torch.float64)
    geno[:, 0:3] = torch.tensor([2.5, -1.0, 4.0]) + 3.0 * torch.randn(p_n, 3, generator=g, dtype=torch.float64)
    geno[:, 3] = 360.0 * torch.rand(p_n, generator=g, dtype=torch.float64)
    geno[:, 4] = 180.0 * torch.rand(p_n, generator=g, dtype=torch.float64)
    geno[:, 5] = 360.0 * torch.rand(p_n, generator=g, dtype=torch.float64)
    geno[:, 6:] = 360.0 * torch.rand(p_n, n_tors, generator=g, dtype=torch.float64) - 180.0
    q = torch.randn(runs, 4, generator=g, dtype=torch.float64)
    q = q / q.norm(dim=1, keepdim=True)
    to = lambda x: x.to(dt).contiguous().to(device)
    return (to(geno), to(xyz), to(q), to(unit), to(move), moving.contiguous().to(device), runs)


def reference(genotypes, ref_xyz, ref_quat, bond_unit, bond_point, moving, n_runs) -> torch.Tensor:
    geno = genotypes.double()
    p_n, n_tors = geno.shape[0], geno.shape[1] - 6
    pop = p_n // n_runs
    x = ref_xyz.double().expand(p_n, -1, -1).clone()                       # [P, N, 3]
    unit, point = bond_unit.double(), bond_point.double()
    for t in range(n_tors):
        half = 0.5 * geno[:, 6 + t] * DEG
        q = torch.cat([torch.sin(half)[:, None] * unit[t][None, :], torch.cos(half)[:, None]], dim=1)
        rotated = _qrot(x - point[t], q[:, None, :]) + point[t]
        x = torch.where(moving[t].bool()[None, :, None], rotated, x)
    phi, theta, alpha = geno[:, 3] * DEG, geno[:, 4] * DEG, geno[:, 5] * DEG
    s2 = torch.sin(0.5 * alpha)
    q_gen = torch.stack([s2 * torch.sin(theta) * torch.cos(phi), s2 * torch.sin(theta) * torch.sin(phi),
                         s2 * torch.cos(theta), torch.cos(0.5 * alpha)], dim=1)
    run = torch.arange(p_n, device=geno.device) // pop
    q = _qmul(q_gen, ref_quat.double()[run])
    x = _qrot(x, q[:, None, :]) + geno[:, None, 0:3]
    return x.to(genotypes.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p_n = s["RUNS"] * s["POP"]
    return {"bytes": 4 * p_n * (6 + s["T"]) + 12 * p_n * s["N"], "flops": 40 * p_n * s["N"] * (s["T"] + 1)}
