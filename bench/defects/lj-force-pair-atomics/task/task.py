"""Lennard-Jones forces from a padded Verlet neighbour list (the pair-force sum of an MD step, as in
LAMMPS pair lj/cut on the GPU package, TorchMD / JAX-MD dense neighbour lists): for every atom i and
every listed neighbour j (-1 = empty slot), with the minimum-image displacement d = r_i - r_j in a cubic
periodic box of side L and r2 = |d|^2 < rc^2,
F_i += 24 eps (2 (sigma^2/r2)^6 - (sigma^2/r2)^3) / r2 * d. Output fp32 [N, 3]."""
import torch

META = {
    "name": "lj_neighbor_list_forces",
    "level": 2,
    "category": "scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"n": 5, "K": 64},
        "ragged": {"n": 7, "K": 64},
        "large": {"n": 64, "K": 64},
    },
    "baseline_notes": "One program per block of 32 atoms, a [32, K] tile of neighbour slots: gather the neighbour "
                      "positions, compute the pair forces, sum them over the neighbour axis in registers and store "
                      "each atom's force once (no atomics); 4 warps.",
    "deterministic": True,
}

EPS = 1.0
SIGMA = 1.0
RC = 2.5
RHO = 0.8442  # LAMMPS bench/in.lj reduced density


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3] (a jittered simple-cubic lattice of n^3 atoms at the LJ-melt density), nbr [N, K] int32
    (the lattice Verlet list: the 56 sites within sqrt(5) spacings, shuffled, padded with -1), box side L."""
    s = META["sizes"][size]
    n, K = s["n"], s["K"]
    g = torch.Generator().manual_seed(seed)
    a = (1.0 / RHO) ** (1.0 / 3.0)
    L = n * a
    ax = torch.arange(n)
    gi, gj, gk = torch.meshgrid(ax, ax, ax, indexing="ij")
    cells = torch.stack([gi, gj, gk], -1).reshape(-1, 3)
    pos = cells.double() * a + (torch.rand(cells.shape, generator=g, dtype=torch.float64) - 0.5) * 0.2
    r = torch.arange(-2, 3)
    oi, oj, ok = torch.meshgrid(r, r, r, indexing="ij")
    offs = torch.stack([oi, oj, ok], -1).reshape(-1, 3)
    d2 = (offs * offs).sum(-1)
    offs = offs[(d2 > 0) & (d2 <= 5)]  # 56 lattice neighbours
    nb = (cells[:, None, :] + offs[None, :, :]) % n
    nbr = (nb[..., 0] * n + nb[..., 1]) * n + nb[..., 2]
    N = cells.shape[0]
    full = torch.full((N, K), -1, dtype=torch.int64)
    full[:, : offs.shape[0]] = nbr
    perm = torch.argsort(torch.rand(N, K, generator=g), dim=1)
    full = torch.gather(full, 1, perm)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return pos.to(dt).to(device), full.to(torch.int32).to(device), float(L)


def reference(pos: torch.Tensor, nbr: torch.Tensor, box: float) -> torch.Tensor:
    p = pos.double()
    valid = nbr >= 0
    j = nbr.long().clamp(min=0)
    d = p[:, None, :] - p[j]
    d = d - box * torch.round(d / box)
    r2 = (d * d).sum(-1)
    inv2 = SIGMA * SIGMA / r2
    inv6 = inv2 * inv2 * inv2
    fmag = 24.0 * EPS * (2.0 * inv6 * inv6 - inv6) / r2
    fmag = torch.where(valid & (r2 < RC * RC), fmag, torch.zeros_like(fmag))
    return (fmag[..., None] * d).sum(1).to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N = s["n"] ** 3
    return {"bytes": 12 * N + 4 * N * s["K"] + 12 * N, "flops": 30 * N * s["K"]}
