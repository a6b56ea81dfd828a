"""Direct Coulomb summation of an electrostatic potential map (VMD `volmap`/cionize DCS kernel): the potential at
every lattice point of a 3-D grid, V(p) = sum over atoms a of q_a / |p - r_a| (units with k_e = 1)."""
import torch

META = {
    "name": "coulomb_potential_grid",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"atoms": 40, "nx": 6, "ny": 5, "nz": 4},
        "ragged": {"atoms": 77, "nx": 7, "ny": 9, "nz": 3},
        "large": {"atoms": 4096, "nx": 128, "ny": 128, "nz": 16},
    },
    "baseline_notes": "128 lattice points per program, atoms in 64-wide chunks held as a [128, 64] register tile, "
                      "q * rsqrt(r^2) per pair, one row sum at the end; 4 warps.",
    "deterministic": True,
}

SPACING = 0.5  # Angstrom, VMD's default map resolution


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """atoms [A, 4] as (x, y, z, q), a lattice origin [3] and its shape (nx, ny, nz); the atoms sit between
    lattice planes so no lattice point coincides with an atom."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ext = torch.tensor([s["nx"], s["ny"], s["nz"]], dtype=torch.float32) * SPACING
    xyz = torch.rand(s["atoms"], 3, generator=g) * ext
    xyz[:, 2] = (torch.floor(xyz[:, 2] / SPACING) + 0.5) * SPACING
    q = torch.randn(s["atoms"], generator=g) * 0.4
    atoms = torch.cat([xyz, q[:, None]], dim=1).to(dt)
    origin = torch.zeros(3, dtype=dt)
    return atoms.to(device), origin.to(device), s["nx"], s["ny"], s["nz"]


def reference(atoms: torch.Tensor, origin: torch.Tensor, nx: int, ny: int, nz: int) -> torch.Tensor:
    a = atoms.double()
    o = origin.double()
    iz, iy, ix = torch.meshgrid(*(torch.arange(n, device=atoms.device) for n in (nz, ny, nx)), indexing="ij")
    pts = torch.stack([ix, iy, iz], dim=-1).reshape(-1, 3).double() * SPACING + o
    d = torch.cdist(pts, a[:, :3])
    v = (a[:, 3][None, :] / d).sum(dim=1)
    return v.reshape(nz, ny, nx).to(atoms.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": 16 * s["atoms"] + 4 * pts, "flops": 10 * pts * s["atoms"]}
