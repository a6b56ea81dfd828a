"""AutoDock Vina grid-map population (cache::populate): one affinity map per ligand XS atom type.

For every grid point p (Vina's grid_dims: n+1 points per axis at granularity 0.375 A) and every ligand
XS type t that the ligand needs, the map value is the Vina scoring function summed over the receptor's
heavy atoms a within the 8 A cutoff:

    d      = |p - x_a| - (R_t + R_a)                       surface distance, XS vdW radii
    e(t,a) = -0.035579 * exp(-(d / 0.5)^2)                  gauss1
             -0.005156 * exp(-((d - 3) / 2)^2)              gauss2
             +0.840245 * (d < 0 ? d^2 : 0)                  repulsion
             -0.035069 * slope_step(1.5, 0.5, d) * [t, a both hydrophobic]
             -0.587439 * slope_step(0, -0.7, d)  * [donor/acceptor pair]
    map[t, z, y, x] = sum over a with |p - x_a|^2 < 64 of e(t, a)

As in Vina, the receptor atoms that can reach a grid point are found through a coarse cell grid
(szv_grid): the map is cut into bricks of 8 x 8 x 8 points and `brick_start` / `brick_atoms` (CSR) list,
for each brick, every receptor atom closer than the cutoff to the brick's box. The terms are evaluated
analytically (the functions Vina tabulates in precalculate). Coordinates lie on a 1/64 A lattice (the
grid origin too), so squared distances near the cutoff are exact in fp32 and fp64 alike and the cutoff
test is well posed at either precision.

Inputs: rec_xyz [M, 3] fp32, rec_type [M] int32 (XS type), xs_props [17, 4] fp32 (radius, hydrophobic,
donor, acceptor per XS type), probe_types [K] int32, brick_start [n_bricks + 1] int32, brick_atoms [nnz]
int32, origin ox, oy, oz (floats), spacing (float), nx, ny, nz (ints). Output: maps [K, nz, ny, nx] fp32.
"""
import math

import torch

META = {
    "name": "vina_grid_map_populate",
    "level": 2,
    "category": "molecular-docking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 8, "NY": 8, "NZ": 8, "M": 48, "K": 2},
        "ragged": {"NX": 11, "NY": 6, "NZ": 5, "M": 60, "K": 3},
        "large": {"NX": 61, "NY": 61, "NZ": 61, "M": 1800, "K": 8},
    },
    "baseline_notes": "Grid (n_bricks * 8 z-layers, K): each program takes one 8x8 layer of a brick for one "
                      "ligand type and walks the brick's candidate list in chunks of 16 receptor atoms, a "
                      "[64, 16] fp32 tile of distances and Vina terms reduced along the atom axis; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

CUTOFF = 8.0
SPACING = 0.375
BRICK = 8
LATTICE = 64.0  # coordinates are multiples of 1/64 A

# Vina XS types (atom_constants.h order) and their properties: radius, hydrophobic, donor, acceptor.
XS_NAMES = ["C_H", "C_P", "N_P", "N_D", "N_A", "N_DA", "O_P", "O_D", "O_A", "O_DA",
            "S_P", "P_P", "F_H", "Cl_H", "Br_H", "I_H", "Met_D"]
XS_RADIUS = [1.9, 1.9, 1.8, 1.8, 1.8, 1.8, 1.7, 1.7, 1.7, 1.7, 2.0, 2.1, 1.5, 1.8, 2.0, 2.2, 1.2]
XS_HYDROPHOBIC = {"C_H", "F_H", "Cl_H", "Br_H", "I_H", "Met_D"}
XS_DONOR = {"N_D", "N_DA", "O_D", "O_DA", "Met_D"}
XS_ACCEPTOR = {"N_A", "N_DA", "O_A", "O_DA"}
# receptor heavy-atom type mix (protein: carbons, backbone/side-chain N and O, a few S, rare metal)
REC_TYPES = {"C_H": 0.30, "C_P": 0.28, "N_P": 0.05, "N_D": 0.10, "N_A": 0.02, "N_DA": 0.01,
             "O_A": 0.13, "O_DA": 0.08, "S_P": 0.02, "Met_D": 0.01}
# ligand XS types whose maps are built (a drug-like ligand needs about eight)
PROBES = ["C_H", "O_A", "N_D", "C_P", "N_A", "O_DA", "N_P", "S_P"]
WEIGHTS = (-0.035579, -0.005156, 0.840245, -0.035069, -0.587439)


def _xs_props() -> torch.Tensor:
    rows = [[r, float(n in XS_HYDROPHOBIC), float(n in XS_DONOR), float(n in XS_ACCEPTOR)]
            for n, r in zip(XS_NAMES, XS_RADIUS)]
    return torch.tensor(rows, dtype=torch.float64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A synthetic binding site: receptor heavy atoms fill the half-space below the box centre (plus the
    cutoff margin around the box) at protein density, with a spherical pocket carved around the centre."""
    s = META["sizes"][size]
    nx, ny, nz, m, k = s["NX"], s["NY"], s["NZ"], s["M"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dims = torch.tensor([nx, ny, nz], dtype=torch.float64)
    centre = torch.tensor([12.5, -3.25, 20.0], dtype=torch.float64)
    origin = torch.round((centre - 0.5 * (dims - 1) * SPACING) * LATTICE) / LATTICE
    lo = origin - CUTOFF
    hi = origin + (dims - 1) * SPACING + CUTOFF
    pocket = min(6.0, 0.35 * float((dims - 1).min()) * SPACING + 1.0)
    pts = []
    have = 0
    while have < m:
        cand = lo + torch.rand(4 * m, 3, generator=g, dtype=torch.float64) * (hi - lo)
        keep = (cand[:, 2] < centre[2] + 2.0) & ((cand - centre).norm(dim=1) > pocket)
        pts.append(cand[keep])
        have += int(keep.sum())
    xyz = torch.round(torch.cat(pts)[:m] * LATTICE) / LATTICE
    names = list(REC_TYPES)
    probs = torch.tensor([REC_TYPES[n] for n in names], dtype=torch.float64)
    pick = torch.multinomial(probs, m, replacement=True, generator=g)
    rec_type = torch.tensor([XS_NAMES.index(n) for n in names], dtype=torch.int32)[pick]
    probe_types = torch.tensor([XS_NAMES.index(n) for n in PROBES[:k]], dtype=torch.int32)
    # szv_grid-style candidate lists: per brick of 8x8x8 points, the atoms within the cutoff of its box
    nb = [math.ceil(n / BRICK) for n in (nx, ny, nz)]
    starts, lists = [0], []
    for bz in range(nb[2]):
        for by in range(nb[1]):
            for bx in range(nb[0]):
                first = torch.tensor([bx, by, bz], dtype=torch.float64) * BRICK
                last = torch.minimum(first + BRICK - 1, dims - 1)
                box_lo, box_hi = origin + first * SPACING, origin + last * SPACING
                gap = (torch.clamp(xyz, min=box_lo, max=box_hi) - xyz).pow(2).sum(1)
                idx = torch.nonzero(gap < CUTOFF * CUTOFF).flatten().to(torch.int32)
                lists.append(idx)
                starts.append(starts[-1] + idx.numel())
    brick_start = torch.tensor(starts, dtype=torch.int32)
    brick_atoms = torch.cat(lists) if lists else torch.zeros(0, dtype=torch.int32)
    o = [float(v) for v in origin]
    return (xyz.to(dt).to(device), rec_type.to(device), _xs_props().to(dt).to(device),
            probe_types.to(device), brick_start.to(device), brick_atoms.to(device),
            o[0], o[1], o[2], SPACING, nx, ny, nz)


def reference(rec_xyz, rec_type, xs_props, probe_types, brick_start, brick_atoms,
              ox, oy, oz, spacing, nx, ny, nz) -> torch.Tensor:
    """fp64, over blocks of 16^3 grid points, each against every receptor atom within the cutoff of the
    block's box (its own search, independent of the brick lists)."""
    dev = rec_xyz.device
    xyz = rec_xyz.double()
    props = xs_props.double()
    ra, hyd_a, don_a, acc_a = (props[rec_type.long(), c] for c in range(4))
    probes = [[float(v) for v in props[t]] for t in probe_types.tolist()]
    w1, w2, w3, w4, w5 = WEIGHTS
    origin = torch.tensor([ox, oy, oz], dtype=torch.float64, device=dev)
    out = torch.zeros(len(probes), nz, ny, nx, dtype=torch.float64, device=dev)
    step = 16
    for z0 in range(0, nz, step):
        for y0 in range(0, ny, step):
            for x0 in range(0, nx, step):
                zs = torch.arange(z0, min(z0 + step, nz), device=dev)
                ys = torch.arange(y0, min(y0 + step, ny), device=dev)
                xs = torch.arange(x0, min(x0 + step, nx), device=dev)
                zz, yy, xx = torch.meshgrid(zs, ys, xs, indexing="ij")
                pts = origin + torch.stack([xx, yy, zz], dim=-1).reshape(-1, 3).double() * spacing
                lo, hi = pts.min(0).values, pts.max(0).values
                near = (torch.clamp(xyz, min=lo, max=hi) - xyz).pow(2).sum(1) < CUTOFF * CUTOFF
                a = torch.nonzero(near).flatten()
                r2 = (pts[:, None, :] - xyz[a][None, :, :]).pow(2).sum(-1)
                r = r2.sqrt()
                inside = r2 < CUTOFF * CUTOFF
                for ki, (rp, hyd_p, don_p, acc_p) in enumerate(probes):
                    d = r - (rp + ra[a])[None, :]
                    hbp = ((don_p * acc_a[a] + acc_p * don_a[a]) > 0).double()
                    e = (w1 * torch.exp(-(d / 0.5) ** 2) + w2 * torch.exp(-((d - 3.0) / 2.0) ** 2)
                         + w3 * torch.where(d < 0, d * d, torch.zeros_like(d))
                         + w4 * torch.clamp(1.5 - d, 0.0, 1.0) * (hyd_p * hyd_a[a])[None, :]
                         + w5 * torch.clamp(-d / 0.7, 0.0, 1.0) * hbp[None, :])
                    e = torch.where(inside, e, torch.zeros_like(e)).sum(1)
                    out[ki, z0:z0 + len(zs), y0:y0 + len(ys), x0:x0 + len(xs)] = e.reshape(len(zs), len(ys), len(xs))
    return out.to(rec_xyz.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["NX"] * s["NY"] * s["NZ"]
    return {"bytes": 4 * s["K"] * pts + 16 * s["M"], "flops": 60 * s["K"] * pts * 150}
