"""Intermolecular grid energy of a docking population (AutoDock-GPU calc_energy, grid term)."""
import torch
import triton
import triton.language as tl

OUT_OF_GRID = tl.constexpr(16777216.0)


@triton.jit
def _trilinear(map_ptr, base, G, fx, fy, fz, mask):
    c000 = tl.load(map_ptr + base, mask=mask, other=0.0)
    c001 = tl.load(map_ptr + base + 1, mask=mask, other=0.0)
    c010 = tl.load(map_ptr + base + G, mask=mask, other=0.0)
    c011 = tl.load(map_ptr + base + G + 1, mask=mask, other=0.0)
    c100 = tl.load(map_ptr + base + G * G, mask=mask, other=0.0)
    c101 = tl.load(map_ptr + base + G * G + 1, mask=mask, other=0.0)
    c110 = tl.load(map_ptr + base + G * G + G, mask=mask, other=0.0)
    c111 = tl.load(map_ptr + base + G * G + G + 1, mask=mask, other=0.0)
    c00 = c000 + fx * (c001 - c000)
    c01 = c010 + fx * (c011 - c010)
    c10 = c100 + fx * (c101 - c100)
    c11 = c110 + fx * (c111 - c110)
    c0 = c00 + fy * (c01 - c00)
    c1 = c10 + fy * (c11 - c10)
    return c0 + fz * (c1 - c0)


@triton.jit
def _grid_energy(coords, atom_types, charges, maps, energy, n_poses, A, G, T,
                 BLOCK_P: tl.constexpr, BLOCK_A: tl.constexpr):
    poses = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    atoms = tl.arange(0, BLOCK_A)
    pose_ok = poses < n_poses
    atom_ok = atoms < A
    live = pose_ok[:, None] & atom_ok[None, :]
    xyz = coords + (poses[:, None] * A + atoms[None, :]) * 3
    x = tl.load(xyz, mask=live, other=0.0)
    y = tl.load(xyz + 1, mask=live, other=0.0)
    z = tl.load(xyz + 2, mask=live, other=0.0)
    t = tl.load(atom_types + atoms, mask=atom_ok, other=0)
    q = tl.load(charges + atoms, mask=atom_ok, other=0.0)
    hi = G - 1.0
    inside = (x >= 0) & (y >= 0) & (z >= 0) & (x < hi) & (y < hi) & (z < hi)
    gather = live & inside
    x0 = tl.floor(x)
    y0 = tl.floor(y)
    z0 = tl.floor(z)
    base = (z0.to(tl.int32) * G + y0.to(tl.int32)) * G + x0.to(tl.int32)
    fx = x - x0
    fy = y - y0
    fz = z - z0
    cells = G * G * G
    e_type = _trilinear(maps + t[None, :] * cells, base, G, fx, fy, fz, gather)
    e_elec = _trilinear(maps + T * cells, base, G, fx, fy, fz, gather)
    e_desolv = _trilinear(maps + (T + 1) * cells, base, G, fx, fy, fz, gather)
    e_atom = e_type + q[None, :] * e_elec + tl.abs(q)[None, :] * e_desolv
    e_atom = tl.where(inside, e_atom, OUT_OF_GRID)
    e_atom = tl.where(live, e_atom, 0.0)
    tl.store(energy + poses, tl.sum(e_atom, axis=1), mask=pose_ok)


def run(coords: torch.Tensor, atom_types: torch.Tensor, charges: torch.Tensor, maps: torch.Tensor) -> torch.Tensor:
    R, P, A, _ = coords.shape
    T = maps.shape[0] - 2
    G = maps.shape[-1]
    energy = torch.empty((R, P), device=coords.device, dtype=torch.float32)
    BLOCK_P = 4
    BLOCK_A = triton.next_power_of_2(A)
    n_poses = R * P
    _grid_energy[(triton.cdiv(n_poses, BLOCK_P),)](coords, atom_types, charges, maps, energy, n_poses, A, G, T,
                                                    BLOCK_P=BLOCK_P, BLOCK_A=BLOCK_A, num_warps=4)
    return energy
