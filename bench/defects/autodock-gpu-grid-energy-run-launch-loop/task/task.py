"""Intermolecular grid energy of a docking population (AutoDock-GPU calc_energy, grid term).

Every pose of every LGA run places the ligand's A atoms in the receptor box; coordinates are given
in grid units (x = (X - x_min) / spacing). For each atom inside the box the energy is the trilinear
interpolation of its atom-type map plus q * (electrostatic map) plus |q| * (desolvation map); an
atom outside [0, G-1) in any axis adds the out-of-grid penalty 2**24 instead. The pose energy is
the sum over its atoms. Maps are [T + 2, G, G, G] fp32, indexed [map][z][y][x]; map T is the
electrostatic map and map T + 1 the desolvation map.
"""
import math

import torch

META = {
    "name": "docking_grid_energy",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"R": 3, "P": 10, "A": 24, "T": 5, "G": 21},
        "ragged": {"R": 4, "P": 13, "A": 37, "T": 6, "G": 27},
        "large": {"R": 100, "P": 150, "A": 40, "T": 7, "G": 61},
    },
    "baseline_notes": "One launch over all R * P poses, BLOCK_P = 4 poses x next_power_of_2(A) atoms per "
                      "program; per atom 8-corner trilinear gathers from the type, electrostatic and "
                      "desolvation maps, the penalty for atoms outside the box, a row sum per pose; 4 warps.",
    "deterministic": True,
}

OUT_OF_GRID = 16777216.0


def _rotations(n: int, g: torch.Generator) -> torch.Tensor:
    q = torch.randn(n, 4, generator=g, dtype=torch.float64)
    w, x, y, z = (q / q.norm(dim=1, keepdim=True)).unbind(1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], 1).view(n, 3, 3)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coords [R, P, A, 3] fp32 (grid units, x y z), atom_types [A] int32, charges [A] fp32, maps [T+2, G, G, G] fp32."""
    s = META["sizes"][size]
    R, P, A, T, G = s["R"], s["P"], s["A"], s["T"], s["G"]
    g = torch.Generator().manual_seed(seed)
    # ligand: a random chain with 1.5 A bonds (4 grid units at 0.375 A spacing), centred
    steps = torch.randn(A, 3, generator=g, dtype=torch.float64)
    lig = torch.cumsum(4.0 * steps / steps.norm(dim=1, keepdim=True), 0)
    lig = lig - lig.mean(0)
    rot = _rotations(R * P, g)
    shift = torch.randn(R * P, 1, 3, generator=g, dtype=torch.float64) * (G / 10.0)
    coords = torch.einsum("nij,aj->nai", rot, lig) + shift + (G - 1) / 2.0
    coords = coords.reshape(R, P, A, 3).float().contiguous()
    atom_types = torch.randint(0, T, (A,), generator=g, dtype=torch.int32)
    charges = (torch.randn(A, generator=g) * 0.25).float()
    # smooth-ish maps: a few Gaussian wells plus noise, a repulsive wall at the box edge
    ax = torch.arange(G, dtype=torch.float64)
    zz, yy, xx = torch.meshgrid(ax, ax, ax, indexing="ij")
    maps = torch.randn(T + 2, G, G, G, generator=g, dtype=torch.float64) * 0.05
    for m in range(T + 2):
        for _ in range(4):
            c = torch.rand(3, generator=g, dtype=torch.float64) * (G - 1)
            amp = float(torch.randn((), generator=g, dtype=torch.float64)) * 0.8
            width = 2.0 + 4.0 * float(torch.rand((), generator=g, dtype=torch.float64))
            r2 = (xx - c[0]) ** 2 + (yy - c[1]) ** 2 + (zz - c[2]) ** 2
            maps[m] += amp * torch.exp(-r2 / (2 * width * width))
    maps[T + 1] = maps[T + 1].abs()
    edge = torch.minimum(torch.minimum(xx, G - 1 - xx), torch.minimum(torch.minimum(yy, G - 1 - yy), torch.minimum(zz, G - 1 - zz)))
    maps[:T] += 2.0 * torch.exp(-edge)
    return coords.to(device), atom_types.to(device), charges.to(device), maps.float().to(device)


def reference(coords: torch.Tensor, atom_types: torch.Tensor, charges: torch.Tensor, maps: torch.Tensor) -> torch.Tensor:
    R, P, A, _ = coords.shape
    G = maps.shape[-1]
    T = maps.shape[0] - 2
    c = coords.double().reshape(-1, A, 3)
    inside = ((c >= 0) & (c < G - 1)).all(-1)
    cc = torch.where(inside[..., None], c, torch.zeros_like(c))
    i0 = cc.floor()
    f = cc - i0
    i0 = i0.long()
    flat = maps.double().reshape(T + 2, -1)
    q = charges.double()
    table = torch.stack([flat[atom_types.long()], flat[T][None].expand(A, -1), flat[T + 1][None].expand(A, -1)])
    weights = torch.stack([torch.ones_like(q), q, q.abs()])
    energy = torch.zeros(c.shape[:2], dtype=torch.float64, device=c.device)
    for corner in range(8):
        dx, dy, dz = corner & 1, (corner >> 1) & 1, (corner >> 2) & 1
        wx = f[..., 0] if dx else 1 - f[..., 0]
        wy = f[..., 1] if dy else 1 - f[..., 1]
        wz = f[..., 2] if dz else 1 - f[..., 2]
        idx = ((i0[..., 2] + dz) * G + (i0[..., 1] + dy)) * G + (i0[..., 0] + dx)
        for k in range(3):
            vals = torch.gather(table[k], 1, idx.t().contiguous()).t()
            energy += wx * wy * wz * weights[k] * vals
    energy = torch.where(inside, energy, torch.full_like(energy, OUT_OF_GRID)).sum(1)
    return energy.view(R, P).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    atoms = s["R"] * s["P"] * s["A"]
    return {"bytes": 12 * atoms + 4 * 24 * atoms + 4 * s["R"] * s["P"], "flops": 80 * atoms}
