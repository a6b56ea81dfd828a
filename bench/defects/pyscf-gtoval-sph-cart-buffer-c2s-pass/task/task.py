"""Spherical Gaussian AO values on DFT grid points (PySCF eval_gto 'GTOval_sph' / gpu4pyscf eval_ao, deriv=0).

Each contracted shell of angular momentum l centred at A contributes the real spherical AOs

    phi(r) = Y_l(x, y, z) * sum_p c_p exp(-alpha_p |r - A|^2),     (x, y, z) = r - A

with PySCF's conventions: contraction coefficients c_p include the primitive and contracted
normalisation (gto.make_bas), s and p carry libcint's common factors 1/(2 sqrt(pi)) and
sqrt(3/(4 pi)) (p ordered x, y, z), and d uses libcint's Cartesian-to-spherical rows
(m = -2..2: xy, yz, 2zz - xx - yy, xz, xx - yy with their normalisation factors).
Basis def2-SVP for C and H. Shells are passed grouped by (l, nprim), as gpu4pyscf launches them;
`shl_ao` gives each shell's first row in PySCF's AO order (atom by atom).

Inputs: coords fp32 [3, ngrids] (grid x, y, z rows), shl_xyz fp32 [nshl, 3], shl_exp / shl_coef
fp32 [nshl, MAXP] (zero padded), shl_ao int32 [nshl], groups ((l, nprim, first_shell, count), ...),
nao. Output: ao fp32 [nao, ngrids] (gpu4pyscf layout, grid index contiguous).
"""
import math

import torch

META = {
    "name": "gto_eval_sph",
    "level": 2,
    "category": "quantum-chemistry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"heavy": 2, "hydrogen": 3, "ngrids": 200},
        "ragged": {"heavy": 3, "hydrogen": 4, "ngrids": 333},
        "large": {"heavy": 40, "hydrogen": 56, "ngrids": 262144},
    },
    "baseline_notes": "One launch per (l, nprim) shell group; each program evaluates a tile of 16 shells x 128 "
                      "grid points (radial contraction, then the l-specific polynomial and libcint's "
                      "Cartesian-to-spherical combination in registers) and stores the spherical rows "
                      "straight into ao [nao, ngrids]. 4 warps, no autotune.",
    "deterministic": True,
}

# def2-SVP (exponent, coefficient) per shell, PySCF's order within an atom: s shells, p shells, d shells
DEF2_SVP = {
    "C": [
        (0, [(1238.4016938, 0.0054568832082), (186.29004992, 0.040638409211), (42.251176346, 0.18025593888),
             (11.676557932, 0.46315121755), (3.5930506482, 0.44087173314)]),
        (0, [(0.40245147363, 1.0)]),
        (0, [(0.13090182668, 1.0)]),
        (1, [(9.4680970621, 0.038387871728), (2.0103545142, 0.21117025112), (0.54771004707, 0.51328172114)]),
        (1, [(0.15268613795, 1.0)]),
        (2, [(0.8, 1.0)]),
    ],
    "H": [
        (0, [(13.010701, 0.019682158), (1.9622572, 0.13796524), (0.44453796, 0.47831935)]),
        (0, [(0.12194962, 1.0)]),
        (1, [(0.8, 1.0)]),
    ],
}
NSPH = {0: 1, 1: 3, 2: 5}
MAXP = 5
FAC_S = 0.282094791773878143
FAC_P = 0.488602511902919921
D_XY = 1.092548430592079070      # m = -2, -1, +1
D_Z2 = 0.315391565252520002      # m = 0: D_Z2 * (2 zz - xx - yy)
D_X2Y2 = 0.546274215296039535    # m = +2


def _gaussian_int(n, alpha):
    return math.gamma((n + 1) / 2) / (2.0 * alpha ** ((n + 1) / 2))


def _normalised(l, prims):
    """PySCF gto.make_bas: primitive norms, then the contracted function normalised to 1."""
    es = [e for e, _ in prims]
    cs = [c / math.sqrt(_gaussian_int(2 * l + 2, 2 * e)) for e, c in prims]
    s = sum(cs[p] * cs[q] * _gaussian_int(2 * l + 2, es[p] + es[q]) for p in range(len(es)) for q in range(len(es)))
    return es, [c / math.sqrt(s) for c in cs]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_heavy, n_h, ngrids = s["heavy"], s["hydrogen"], s["ngrids"]
    # heavy atoms on a jittered 2.7-bohr lattice, each H 2.05 bohr from a heavy atom
    side = math.ceil(n_heavy ** (1 / 3))
    lattice = torch.tensor([[i, j, k] for i in range(side) for j in range(side) for k in range(side)],
                           dtype=torch.float64)[:n_heavy]
    heavy = 2.7 * lattice + 0.2 * torch.randn(n_heavy, 3, generator=g, dtype=torch.float64)
    hdir = torch.randn(n_h, 3, generator=g, dtype=torch.float64)
    hydro = heavy[torch.arange(n_h) % n_heavy] + 2.05 * hdir / hdir.norm(dim=1, keepdim=True)
    atoms = [("C", heavy[i]) for i in range(n_heavy)] + [("H", hydro[i]) for i in range(n_h)]

    # shells in PySCF AO order, then grouped by (l, nprim) as gpu4pyscf launches them
    shells, ao = [], 0
    for elem, xyz in atoms:
        for l, prims in DEF2_SVP[elem]:
            es, cs = _normalised(l, prims)
            shells.append((l, len(prims), xyz, es, cs, ao))
            ao += NSPH[l]
    nao = ao
    order = sorted(range(len(shells)), key=lambda i: (shells[i][0], -shells[i][1], i))
    shl_xyz = torch.zeros(len(shells), 3, dtype=torch.float64)
    shl_exp = torch.zeros(len(shells), MAXP, dtype=torch.float64)
    shl_coef = torch.zeros(len(shells), MAXP, dtype=torch.float64)
    shl_ao = torch.zeros(len(shells), dtype=torch.int32)
    groups = []
    for k, i in enumerate(order):
        l, nprim, xyz, es, cs, first_ao = shells[i]
        shl_xyz[k] = xyz
        shl_exp[k, :nprim] = torch.tensor(es, dtype=torch.float64)
        shl_coef[k, :nprim] = torch.tensor(cs, dtype=torch.float64)
        shl_ao[k] = first_ao
        if groups and groups[-1][:2] == (l, nprim):
            groups[-1] = (l, nprim, groups[-1][2], groups[-1][3] + 1)
        else:
            groups.append((l, nprim, k, 1))

    # grid points atom by atom: Becke radial map r = R (1 + x) / (1 - x), random directions
    owner = torch.randint(0, len(atoms), (ngrids,), generator=g).sort().values
    x = torch.rand(ngrids, generator=g, dtype=torch.float64) * 1.8 - 0.999
    radius = torch.tensor([0.7 if atoms[a][0] == "C" else 1.0 for a in owner.tolist()], dtype=torch.float64)
    r = radius * (1 + x) / (1 - x)
    d = torch.randn(ngrids, 3, generator=g, dtype=torch.float64)
    centres = torch.stack([atoms[a][1] for a in range(len(atoms))])
    pts = centres[owner] + r[:, None] * d / d.norm(dim=1, keepdim=True)
    coords = pts.T.contiguous()
    return (coords.to(device=device, dtype=dt), shl_xyz.to(device=device, dtype=dt),
            shl_exp.to(device=device, dtype=dt), shl_coef.to(device=device, dtype=dt),
            shl_ao.to(device=device), tuple(groups), nao)


def reference(coords, shl_xyz, shl_exp, shl_coef, shl_ao, groups, nao):
    c = coords.double()
    out = torch.zeros(nao, c.shape[1], dtype=torch.float64, device=coords.device)
    for l, nprim, first, count in groups:
        sl = slice(first, first + count)
        d = c[None, :, :] - shl_xyz[sl].double()[:, :, None]          # [count, 3, ngrids]
        x, y, z = d[:, 0], d[:, 1], d[:, 2]
        r2 = x * x + y * y + z * z
        rad = (shl_coef[sl, :nprim].double()[:, :, None]
               * torch.exp(-shl_exp[sl, :nprim].double()[:, :, None] * r2[:, None, :])).sum(1)
        if l == 0:
            vals = [FAC_S * rad]
        elif l == 1:
            vals = [FAC_P * x * rad, FAC_P * y * rad, FAC_P * z * rad]
        else:
            vals = [D_XY * x * y * rad, D_XY * y * z * rad, D_Z2 * (2 * z * z - x * x - y * y) * rad,
                    D_XY * x * z * rad, D_X2Y2 * (x * x - y * y) * rad]
        rows = shl_ao[sl].long()
        for m, v in enumerate(vals):
            out[rows + m] = v
    return out.to(coords.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nao = 14 * s["heavy"] + 5 * s["hydrogen"]
    return {"bytes": 4 * nao * s["ngrids"], "flops": 40 * nao * s["ngrids"]}
