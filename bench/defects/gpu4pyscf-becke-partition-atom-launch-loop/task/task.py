"""Becke partition weights of a molecular DFT grid (GPU4PySCF / PySCF gen_grid.get_partition).

Every atom A carries its own atom-centred quadrature (radial shells x pruned angular shells) with
quadrature volumes vol_g. A point g of atom A's grid gets the final weight
    w_g = vol_g * P_A(g) / sum_B P_B(g),    P_B(g) = prod_C s(nu_BC(g)),
    mu_BC = (|r_g - R_B| - |r_g - R_C|) / |R_B - R_C|,   nu_BC = mu_BC + a_BC (mu_BC^2 - 1),
    s(nu) = (1 - f(f(f(nu)))) / 2,   f(x) = x (3 - x^2) / 2      (Becke 1988)
with a_BC the Treutler-Ahlrichs atomic-size adjustment in GPU4PySCF's sign convention
(a = -0.25 (1/chi - chi), chi = sqrt(R_B^bragg / R_C^bragg), clipped to [-0.5, 0.5]); the diagonal
(B == C: mu = 0, a = 0) contributes the same factor 1/2 to every P_B and cancels in the ratio.

Inputs: coords [ngrids, 3] fp64 (atom grids concatenated atom by atom, Bohr), vol [ngrids] fp64,
atom_of [ngrids] int32 (the atom owning each point), atom_xyz [natm, 3] fp64, rab_inv [natm, natm]
fp64 (1/|R_B - R_C|, 0 on the diagonal), a_fac [natm, natm] fp64, counts (tuple of ints: points
per atom, known on the host from the per-element grid table). Output: weights [ngrids] fp64.
"""
import math

import torch

META = {
    "name": "becke_partition_weights",
    "level": 2,
    "category": "quantum-chemistry",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-10, "rtol": 1e-8}},
    "sizes": {
        # heavy / hydrogen atoms, radial shells per heavy atom and per H, largest angular grid
        "small": {"heavy": 2, "hydrogen": 1, "rad_heavy": 6, "rad_h": 5, "n_ang": 26},
        "ragged": {"heavy": 3, "hydrogen": 2, "rad_heavy": 7, "rad_h": 5, "n_ang": 38},
        # a 64-atom organic molecule (28 C/N/O + 36 H) on PySCF's level-3 grids:
        # (75, 302) for C/N/O and (50, 302) for H, NWChem-pruned
        "large": {"heavy": 28, "hydrogen": 36, "rad_heavy": 75, "rad_h": 50, "n_ang": 302},
    },
    "baseline_notes": "One launch over all atoms' grid points: programs of 128 points (4 warps) load the "
                      "owner atom of each point, loop over all atoms A (distance to A) and over all atoms B "
                      "(distance to B, Treutler-adjusted Becke switch) to form P_A, keep sum_A P_A and the "
                      "owner's P_A in registers and store vol * P_owner / sum; fp64 throughout, no autotune.",
    "deterministic": True,
}

BOHR = 1.0 / 0.52917721092
BRAGG = {"C": 0.70 * BOHR, "N": 0.65 * BOHR, "O": 0.60 * BOHR, "H": 0.35 * BOHR}
LEBEDEV_SIZES = [38, 50, 74, 86, 110, 146, 170, 194, 230, 266, 302]
TREUTLER_XI = {"H": 0.8, "C": 1.1, "N": 0.9, "O": 0.9}
PRUNE_ALPHAS = {"H": (0.25, 0.5, 1.0, 4.5), "row2": (0.1667, 0.5, 0.9, 3.5)}


def _sphere(n: int) -> torch.Tensor:
    """n nearly uniform unit vectors (Fibonacci lattice), standing in for a Lebedev grid."""
    k = torch.arange(n, dtype=torch.float64) + 0.5
    z = 1.0 - 2.0 * k / n
    phi = k * math.pi * (3.0 - math.sqrt(5.0))
    r = torch.sqrt(1.0 - z * z)
    return torch.stack([r * torch.cos(phi), r * torch.sin(phi), z], dim=1)


def _angular_counts(elem: str, rad: torch.Tensor, n_ang: int) -> list[int]:
    """NWChem pruning as in PySCF's nwchem_prune (uniform n_ang below 50 points)."""
    if n_ang < 50:
        return [n_ang] * len(rad)
    idx = LEBEDEV_SIZES.index(n_ang)
    per_region = [50, 86, LEBEDEV_SIZES[idx - 1], n_ang, LEBEDEV_SIZES[idx - 1]]
    alphas = torch.tensor(PRUNE_ALPHAS["H" if elem == "H" else "row2"], dtype=torch.float64)
    place = ((rad / BRAGG[elem])[:, None] > alphas[None, :]).sum(dim=1)
    return [per_region[int(p)] for p in place]


def _atom_grid(elem: str, n_rad: int, n_ang: int) -> tuple:
    """Treutler-Ahlrichs M4 radial grid (PySCF's default radi_method) times pruned angular shells."""
    i = torch.arange(1, n_rad + 1, dtype=torch.float64)
    step = math.pi / (n_rad + 1)
    x = torch.cos(i * step)
    scale = TREUTLER_XI[elem] / math.log(2.0)
    rad = -scale * (1.0 + x) ** 0.6 * torch.log((1.0 - x) / 2.0)
    dr = step * torch.sin(i * step) * scale * (1.0 + x) ** 0.6 * (
        -0.6 / (1.0 + x) * torch.log((1.0 - x) / 2.0) + 1.0 / (1.0 - x))
    rad_weight = 4.0 * math.pi * rad ** 2 * dr
    coords, vol = [], []
    for r, wr, na in zip(rad.flip(0), rad_weight.flip(0), _angular_counts(elem, rad.flip(0), n_ang)):
        coords.append(r * _sphere(na))
        vol.append(torch.full((na,), float(wr) / na, dtype=torch.float64))
    return torch.cat(coords), torch.cat(vol)


def _molecule(n_heavy: int, n_h: int, g: torch.Generator) -> tuple:
    """A compact organic-like geometry: heavy atoms >= 2.6 Bohr apart, each H 2.05 Bohr from one of them."""
    elems, xyz = [], []
    box = 2.2 * max(n_heavy, 1) ** (1.0 / 3.0) + 1.0
    while len(xyz) < n_heavy:
        p = (torch.rand(3, generator=g, dtype=torch.float64) - 0.5) * 2.0 * box
        nearest = min((float((p - q).norm()) for q in xyz), default=3.0)
        if 2.6 < nearest < 3.2:  # bonded to the cluster, not clashing
            xyz.append(p)
            elems.append(["C", "C", "N", "O"][len(elems) % 4])
    heavy = list(xyz)
    while len(xyz) < n_heavy + n_h:
        host = heavy[int(torch.randint(0, n_heavy, (1,), generator=g))]
        d = torch.randn(3, generator=g, dtype=torch.float64)
        p = host + 2.05 * d / d.norm()
        if min(float((p - q).norm()) for q in xyz) > 1.9:
            xyz.append(p)
            elems.append("H")
    return elems, torch.stack(xyz)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coords, vol, atom_of, atom_xyz, rab_inv, a_fac, counts (see the module docstring)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    elems, atom_xyz = _molecule(s["heavy"], s["hydrogen"], g)
    coords, vol, owner, counts = [], [], [], []
    for ia, elem in enumerate(elems):
        c, v = _atom_grid(elem, s["rad_h"] if elem == "H" else s["rad_heavy"], s["n_ang"])
        coords.append(c + atom_xyz[ia])
        vol.append(v)
        owner.append(torch.full((len(v),), ia, dtype=torch.int32))
        counts.append(len(v))
    rab = (atom_xyz[:, None, :] - atom_xyz[None, :, :]).norm(dim=-1)
    rab_inv = torch.where(rab > 0, 1.0 / rab.clamp(min=1e-12), torch.zeros_like(rab))
    rad = torch.tensor([math.sqrt(BRAGG[e]) for e in elems], dtype=torch.float64)
    chi = rad[:, None] / rad[None, :]
    a_fac = (-0.25 * (1.0 / chi - chi)).clamp(-0.5, 0.5)
    a_fac.fill_diagonal_(0.0)
    return (torch.cat(coords).to(device=device, dtype=dt), torch.cat(vol).to(device=device, dtype=dt),
            torch.cat(owner).to(device), atom_xyz.to(device=device, dtype=dt),
            rab_inv.to(device=device, dtype=dt), a_fac.to(device=device, dtype=dt), tuple(counts))


def reference(coords, vol, atom_of, atom_xyz, rab_inv, a_fac, counts) -> torch.Tensor:
    c, v, X = coords.double(), vol.double(), atom_xyz.double()
    rinv, a = rab_inv.double(), a_fac.double()
    out = torch.empty_like(v)
    for start in range(0, c.shape[0], 4096):
        cg = c[start:start + 4096]
        d = (cg[:, None, :] - X[None, :, :]).norm(dim=-1)                 # [g, natm]
        mu = (d[:, :, None] - d[:, None, :]) * rinv[None]                # [g, B, C]
        nu = mu + a[None] * (mu * mu - 1.0)
        for _ in range(3):
            nu = nu * (3.0 - nu * nu) * 0.5
        p = (0.5 * (1.0 - nu)).prod(dim=2)                                # [g, B]
        own = atom_of[start:start + 4096].long()
        out[start:start + 4096] = v[start:start + 4096] * p.gather(1, own[:, None])[:, 0] / p.sum(dim=1)
    return out.to(vol.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    inputs = make_inputs(size)
    ngrids, natm = inputs[0].shape[0], inputs[3].shape[0]
    return {"bytes": ngrids * (8 * 3 + 8 + 4 + 8), "flops": 30 * ngrids * natm * natm}
