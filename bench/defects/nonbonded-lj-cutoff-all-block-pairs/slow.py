"""Cutoff Lennard-Jones forces over 32-atom blocks of a Morton-sorted system (OpenMM-style tiles)."""
import torch
import triton
import triton.language as tl

TILE = 32
LAUNCH = {"num_warps": 2}


@triton.jit
def _load_atoms(pos_ptr, prm_ptr, ids, n):
    m = ids < n
    x = tl.load(pos_ptr + ids * 3 + 0, mask=m, other=0.0)
    y = tl.load(pos_ptr + ids * 3 + 1, mask=m, other=0.0)
    z = tl.load(pos_ptr + ids * 3 + 2, mask=m, other=0.0)
    half_sig = tl.load(prm_ptr + ids * 2 + 0, mask=m, other=0.0)
    two_sqrt_eps = tl.load(prm_ptr + ids * 2 + 1, mask=m, other=0.0)
    return x, y, z, half_sig, two_sqrt_eps, m


@triton.jit
def _lj_tile_force(xi, yi, zi, si, ei, ids_i, xj, yj, zj, sj, ej, ids_j, mj, cutoff2):
    dx = xi[:, None] - xj[None, :]
    dy = yi[:, None] - yj[None, :]
    dz = zi[:, None] - zj[None, :]
    r2 = dx * dx + dy * dy + dz * dz
    inv_r2 = 1.0 / r2
    sig = si[:, None] + sj[None, :]
    s2 = sig * sig * inv_r2
    s6 = s2 * s2 * s2
    fscale = (ei[:, None] * ej[None, :]) * (12.0 * s6 * s6 - 6.0 * s6) * inv_r2
    pair = (r2 < cutoff2) & (ids_i[:, None] != ids_j[None, :]) & mj[None, :]
    fscale = tl.where(pair, fscale, 0.0)
    return tl.sum(fscale * dx, axis=1), tl.sum(fscale * dy, axis=1), tl.sum(fscale * dz, axis=1)


@triton.jit
def lj_cutoff_force_kernel(pos_ptr, prm_ptr, force_ptr, n, num_blocks, cutoff2, TILE: tl.constexpr):
    bi = tl.program_id(0)
    ids_i = bi * TILE + tl.arange(0, TILE)
    xi, yi, zi, si, ei, mi = _load_atoms(pos_ptr, prm_ptr, ids_i, n)
    fx = tl.zeros([TILE], dtype=tl.float32)
    fy = tl.zeros([TILE], dtype=tl.float32)
    fz = tl.zeros([TILE], dtype=tl.float32)
    for bj in range(0, num_blocks):
        ids_j = bj * TILE + tl.arange(0, TILE)
        xj, yj, zj, sj, ej, mj = _load_atoms(pos_ptr, prm_ptr, ids_j, n)
        tx, ty, tz = _lj_tile_force(xi, yi, zi, si, ei, ids_i, xj, yj, zj, sj, ej, ids_j, mj, cutoff2)
        fx += tx
        fy += ty
        fz += tz
    tl.store(force_ptr + ids_i * 3 + 0, fx, mask=mi)
    tl.store(force_ptr + ids_i * 3 + 1, fy, mask=mi)
    tl.store(force_ptr + ids_i * 3 + 2, fz, mask=mi)


def run(pos: torch.Tensor, params: torch.Tensor, cutoff: float) -> torch.Tensor:
    n = pos.shape[0]
    num_blocks = triton.cdiv(n, TILE)
    force = torch.empty_like(pos)
    lj_cutoff_force_kernel[(num_blocks,)](pos, params, force, n, num_blocks, cutoff * cutoff, TILE=TILE, **LAUNCH)
    return force
