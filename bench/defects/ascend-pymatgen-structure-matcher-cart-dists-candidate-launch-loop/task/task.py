"""Periodic shortest-distance matrices of StructureMatcher candidates (pymatgen pbc_shortest_vectors, return_d2).

pymatgen's StructureMatcher._strict_match scores every candidate mapping of struct2 onto struct1: a
supercell lattice found by _get_lattices (here averaged with struct1's, `avg_l`) times a translation that
puts one site of the least frequent species of struct2 onto one of struct1. For each candidate
_cart_dists calls coord_cython.pbc_shortest_vectors(avg_l, s2, s1, mask, return_d2=True, lll_frac_tol)
and hands d2 to the Hungarian assignment. For candidate b, row site i (fa) and column site j (fb):

    ok      = species_a[i] == species_b[j]  and  all_l |df_l - round(df_l)| <= ftol[b, l],  df = fb_j - fa_i
    pre     = (fb_j mod 1) @ L_b - (fa_i mod 1) @ L_b
    d2[b,i,j] = min over the 27 images n in {-1,0,1}^3 of |pre + n @ L_b|^2   if ok, else 1e20

L_b holds the lattice vectors as rows (Angstrom). Coordinates are stored component-major ([B, 3, N]) so
each component is one contiguous row.
"""
import math

import torch

META = {
    "name": "structure_matcher_cart_dists",
    "level": 2,
    "category": "crystal-geometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 4, "N": 20, "a": 6.0, "stol": 10.0},
        "ragged": {"B": 5, "N": 33, "a": 7.5, "stol": 0.4},
        "large": {"B": 1152, "N": 160, "a": 12.0, "stol": 0.3},
    },
    "baseline_notes": "One launch for all candidates: 40 programs (the A2's vector cores) loop over "
                      "(candidate, 32x32 site tile) work items; each loads the candidate's lattice and "
                      "tolerances as scalars and the tile's fractional coordinates as contiguous rows, wraps "
                      "them, converts to Cartesian, keeps the running minimum over the 27 images in "
                      "registers and writes d2 once; no autotune.",
    "deterministic": True,
}

BIG = 1e20
# garnet-like composition Y3Al5O12 (species ids 0, 1, 2)
_FRACTIONS = (3 / 20, 5 / 20, 12 / 20)


def _species(n: int, g: torch.Generator) -> torch.Tensor:
    counts = [max(1, round(n * f)) for f in _FRACTIONS[:2]]
    counts.append(n - sum(counts))
    sp = torch.cat([torch.full((c,), k, dtype=torch.int32) for k, c in enumerate(counts)])
    return sp[torch.randperm(n, generator=g)]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lattice [B, 3, 3], fa [B, 3, N] (translated struct2 sites, t_s2fc: the rows), fb [B, 3, N]
    (struct1 sites in each candidate's frame, s1fc: the columns), species_a [N] int32, species_b [N]
    int32, ftol [B, 3]."""
    s = META["sizes"][size]
    nb, n, a, stol = s["B"], s["N"], s["a"], s["stol"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = torch.rand(n, 3, generator=g, dtype=torch.float64)
    sp_b = _species(n, g)
    perm = torch.randperm(n, generator=g)
    sp_a = sp_b[perm]
    # candidate lattices: slightly strained, slightly sheared versions of the cubic cell
    eye = torch.eye(3, dtype=torch.float64)
    strain = 0.02 * torch.randn(nb, 3, 3, generator=g, dtype=torch.float64)
    lattice = a * (eye + 0.5 * (strain + strain.transpose(1, 2)))
    lattice[:, 1, 0] += 0.1 * a * torch.rand(nb, generator=g, dtype=torch.float64)
    # struct1 sites in each candidate's frame
    fb = base[None] + 0.002 * torch.randn(nb, n, 3, generator=g, dtype=torch.float64)
    # struct2: the same sites in another order, displaced a little, moved by the candidate translation
    # t = s1fc[s1i] - s2fc[s2_t_ind] and not wrapped into the cell
    t = torch.rand(nb, 1, 3, generator=g, dtype=torch.float64) - 0.5
    good = torch.rand(nb, 1, 1, generator=g) < 0.25                          # translations that align
    t = torch.where(good, 0.003 * torch.randn(nb, 1, 3, generator=g, dtype=torch.float64), t)
    fa = base[perm][None] + 0.004 * torch.randn(nb, n, 3, generator=g, dtype=torch.float64) + t
    fa = fa + torch.randint(-1, 2, (nb, n, 3), generator=g).double()
    # frac tolerance as _strict_match builds it: inv_abc * stol / (pi * normalization)
    vol = torch.linalg.det(lattice).abs()
    norm = (n / vol) ** (1.0 / 3.0)
    inv_abc = 2 * math.pi * torch.linalg.inv(lattice).transpose(1, 2).norm(dim=2)   # reciprocal_lattice.abc
    ftol = inv_abc * stol / (math.pi * norm[:, None])
    return (lattice.to(dt).to(device), fa.transpose(1, 2).contiguous().to(dt).to(device),
            fb.transpose(1, 2).contiguous().to(dt).to(device), sp_a.to(device), sp_b.to(device),
            ftol.to(dt).to(device))


def reference(lattice, fa, fb, species_a, species_b, ftol):
    images = torch.tensor([[i, j, k] for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)],
                          dtype=torch.float64, device=fa.device)
    out = []
    for b in range(lattice.shape[0]):
        lat = lattice[b].double()
        xa, xb = fa[b].double().T, fb[b].double().T                   # [N, 3]
        pre = (xb - torch.floor(xb)) @ lat - ((xa - torch.floor(xa)) @ lat)[:, None, :]   # [Na, Nb, 3]
        cim = images @ lat                                               # [27, 3]
        d2 = ((pre[:, :, None, :] + cim[None, None]) ** 2).sum(-1).min(-1).values
        df = xb[None, :, :] - xa[:, None, :]
        within = ((df - torch.floor(df + 0.5)).abs() <= ftol[b].double()).all(-1)
        ok = within & (species_a[:, None] == species_b[None, :])
        out.append(torch.where(ok, d2, torch.full_like(d2, BIG)))
    return torch.stack(out).to(fa.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, n = s["B"], s["N"]
    return {"bytes": nb * (4 * n * n + 24 * n + 48) + 8 * n, "flops": nb * n * n * (27 * 9 + 30)}
