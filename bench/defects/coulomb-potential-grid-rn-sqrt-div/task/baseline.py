"""Direct Coulomb summation: 128 lattice points per program, atoms streamed in 64-wide chunks."""
import torch
import triton
import triton.language as tl

SPACING = 0.5


@triton.jit
def _lattice_points(idx, nx, ny, ox, oy, oz, spacing):
    ix = idx % nx
    iy = (idx // nx) % ny
    iz = idx // (nx * ny)
    return ox + ix.to(tl.float32) * spacing, oy + iy.to(tl.float32) * spacing, oz + iz.to(tl.float32) * spacing


@triton.jit
def _pair_potential(q, r2):
    return q * tl.math.rsqrt(r2)


@triton.jit
def coulomb_grid_kernel(atoms_ptr, origin_ptr, out_ptr, num_atoms, num_points, nx, ny, spacing,
                        BLOCK_P: tl.constexpr, BLOCK_A: tl.constexpr):
    pid = tl.program_id(0)
    idx = pid * BLOCK_P + tl.arange(0, BLOCK_P)
    pm = idx < num_points
    ox = tl.load(origin_ptr + 0)
    oy = tl.load(origin_ptr + 1)
    oz = tl.load(origin_ptr + 2)
    px, py, pz = _lattice_points(idx, nx, ny, ox, oy, oz, spacing)
    acc = tl.zeros([BLOCK_P, BLOCK_A], dtype=tl.float32)
    for start in range(0, num_atoms, BLOCK_A):
        a = start + tl.arange(0, BLOCK_A)
        am = a < num_atoms
        ax = tl.load(atoms_ptr + a * 4 + 0, mask=am, other=0.0)
        ay = tl.load(atoms_ptr + a * 4 + 1, mask=am, other=0.0)
        az = tl.load(atoms_ptr + a * 4 + 2, mask=am, other=1.0e6)
        aq = tl.load(atoms_ptr + a * 4 + 3, mask=am, other=0.0)
        dx = px[:, None] - ax[None, :]
        dy = py[:, None] - ay[None, :]
        dz = pz[:, None] - az[None, :]
        r2 = dx * dx + dy * dy + dz * dz
        acc += _pair_potential(aq[None, :], r2)
    tl.store(out_ptr + idx, tl.sum(acc, axis=1), mask=pm)


def run(atoms: torch.Tensor, origin: torch.Tensor, nx: int, ny: int, nz: int) -> torch.Tensor:
    num_points = nx * ny * nz
    out = torch.empty((nz, ny, nx), device=atoms.device, dtype=torch.float32)
    cfg = {"BLOCK_P": 128, "BLOCK_A": 64, "num_warps": 4}
    grid = (triton.cdiv(num_points, cfg["BLOCK_P"]),)
    coulomb_grid_kernel[grid](atoms, origin, out, atoms.shape[0], num_points, nx, ny, SPACING, **cfg)
    return out
