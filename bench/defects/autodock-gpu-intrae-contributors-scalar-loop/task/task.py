"""AutoDock-GPU intramolecular energy (gpu_calc_energy, "CALCULATING INTRAMOLECULAR ENERGY").

For every pose of the LGA population (n_runs x pop_size individuals, coordinates already built from the
genotype) the ligand's internal energy is summed over the intraE contributor list, the non-bonded atom
pairs (a1, a2, hbond) separated by more than three bonds, with the AutoDock 4.2 force field as
AutoDock-GPU writes it:

    r < 8 A:      smoothed distance s (r moved 0.25 A towards the optimum opt = reqm[hb][t1] + reqm[hb][t2],
                  s = opt inside opt +- 0.25), E_vdw/hb = AC[t1,t2] / s^12 - BD[t1,t2] / s^(hb ? 10 : 6)
    r < 20.48 A:  E_desolv = ((S1 + qasp |q1|) V2 + (S2 + qasp |q2|) V1) * w_desolv
                              * (12.96 - 0.1063 r^2 (1 - 0.001947 r^2))
                              / (12.96 + r^2 (0.4137 + r^2 (0.00357 + 0.000112 r^2)))
                  E_elec   = (1.105 / (r + 1.261)^2 + 0.0104) * w_elec q1 q2 / r
    intraE[pose] = sum over contributors of the terms above

(the rational functions are AutoDock-GPU's approximations of exp(-r^2 / (2 * 3.6^2)) and of the
Mehler-Solmajer 1 / eps(r)). The AD4.1 parameters (Rii, epsii, vol, solpar, 12-10 H-bond terms and the
free-energy weights) fill the per-type tables. Returns intraE [P] fp32.
"""
import math

import torch

META = {
    "name": "autodock_gpu_intra_energy",
    "level": 2,
    "category": "molecular-docking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 4, "N": 12},
        "ragged": {"P": 5, "N": 15},
        "large": {"P": 3000, "N": 48},
    },
    "baseline_notes": "One program per pose (grid = n_runs * pop_size); the contributor list is walked in "
                      "blocks of 128 pairs: atom ids, types and charges loaded as vectors, the pose's "
                      "coordinates gathered, all terms evaluated on the block and accumulated in a vector "
                      "that is summed once at the end; 4 warps, no autotune.",
    "deterministic": True,
}

# AD4.1 atom types: Rii, epsii, vol, solpar, hbond role (0 none, 1 donor H, 2 acceptor)
AD4_TYPES = {
    "C": (4.00, 0.150, 33.5103, -0.00143, 0),
    "A": (4.00, 0.150, 33.5103, -0.00052, 0),
    "N": (3.50, 0.160, 22.4493, -0.00162, 0),
    "NA": (3.50, 0.160, 22.4493, -0.00162, 2),
    "OA": (3.20, 0.200, 17.1573, -0.00251, 2),
    "S": (4.00, 0.200, 33.5103, -0.00214, 0),
    "HD": (2.00, 0.020, 0.0000, 0.00051, 1),
}
TYPE_NAMES = list(AD4_TYPES)
HEAVY_MIX = {"C": 0.50, "A": 0.18, "N": 0.08, "NA": 0.07, "OA": 0.13, "S": 0.04}
RIJ_HB, EPSIJ_HB = 1.9, 5.0
W_VDW, W_HB, W_ELEC, W_DESOLV = 0.1662, 0.1209, 0.1406, 0.1322
SMOOTH = 0.5
QASP = 0.01097
COEFF_ELEC = W_ELEC * 332.06363


def _tables() -> tuple:
    nt = len(TYPE_NAMES)
    rii = torch.tensor([AD4_TYPES[t][0] for t in TYPE_NAMES], dtype=torch.float64)
    eps = torch.tensor([AD4_TYPES[t][1] for t in TYPE_NAMES], dtype=torch.float64)
    role = [AD4_TYPES[t][4] for t in TYPE_NAMES]
    ac = torch.empty(nt, nt, dtype=torch.float64)
    bd = torch.empty(nt, nt, dtype=torch.float64)
    for i in range(nt):
        for j in range(nt):
            if {role[i], role[j]} == {1, 2}:   # donor H with acceptor: 12-10 H-bond
                ac[i, j] = W_HB * 5.0 * EPSIJ_HB * RIJ_HB ** 12
                bd[i, j] = W_HB * 6.0 * EPSIJ_HB * RIJ_HB ** 10
            else:                               # 12-6 Lennard-Jones
                r = 0.5 * (rii[i] + rii[j])
                e = math.sqrt(eps[i] * eps[j])
                ac[i, j] = W_VDW * e * r ** 12
                bd[i, j] = W_VDW * 2.0 * e * r ** 6
    reqm = torch.stack([0.5 * rii, torch.tensor([RIJ_HB if r == 2 else 0.0 for r in role], dtype=torch.float64)])
    ds_s = torch.tensor([AD4_TYPES[t][3] for t in TYPE_NAMES], dtype=torch.float64)
    ds_v = torch.tensor([AD4_TYPES[t][2] for t in TYPE_NAMES], dtype=torch.float64)
    return reqm, ac, bd, ds_s, ds_v, role


def _ligand(n: int, g: torch.Generator) -> tuple:
    """A branched ligand grown bond by bond: 1.5 A heavy-atom bonds with every new atom more than 2.5 A from
    all but its parent, then polar H (1.0 A) on N / OA atoms."""
    n_h = max(1, n // 8)
    n_heavy = n - n_h
    pos = [torch.zeros(3, dtype=torch.float64)]
    parent = [-1]
    degree = [0]

    def place(p: int, length: float, gap: float) -> torch.Tensor | None:
        for _ in range(200):
            v = torch.randn(3, generator=g, dtype=torch.float64)
            x = pos[p] + length * v / v.norm()
            if all((x - q).norm() > gap for i, q in enumerate(pos) if i != p):
                return x
        return None

    while len(pos) < n_heavy:
        p = int(torch.randint(0, len(pos), (1,), generator=g))
        x = place(p, 1.5, 2.5) if degree[p] < 3 else None
        if x is None:
            continue
        pos.append(x)
        parent.append(p)
        degree.append(1)
        degree[p] += 1
    names = list(HEAVY_MIX)
    probs = torch.tensor([HEAVY_MIX[t] for t in names], dtype=torch.float64)
    types = [names[int(i)] for i in torch.multinomial(probs, n_heavy, replacement=True, generator=g)]
    donors = [i for i, t in enumerate(types) if t in ("N", "OA") and degree[i] < 3]
    donors += [i for i in range(n_heavy) if degree[i] == 1 and i not in donors]
    while len(pos) < n:
        p = donors[(len(pos) - n_heavy) % len(donors)]
        x = place(p, 1.0, 1.9)
        if x is None:
            donors.remove(p)
            continue
        if types[p] not in ("N", "OA"):
            types[p] = "OA"
        pos.append(x)
        parent.append(p)
        degree[p] += 1
        types.append("HD")
    return torch.stack(pos), parent, types


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coords [P, N, 3] (each pose the ligand rigidly placed, with 0.15 A of per-atom jitter standing in
    for its torsion changes), contributors [C, 3] int32, atom types [N] int32, charges [N], the AD4 tables,
    then the scalars smooth, qasp, w_desolv, w_elec."""
    s = META["sizes"][size]
    p_n, n = s["P"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ref, parent, types = _ligand(n, g)
    ref = ref - ref.mean(0)
    # bond-graph separation, contributors are pairs more than three bonds apart
    adj = [[] for _ in range(n)]
    for i, p in enumerate(parent):
        if p >= 0:
            adj[i].append(p)
            adj[p].append(i)
    pairs = []
    for i in range(n):
        dist = {i: 0}
        frontier = [i]
        while frontier:
            nxt = []
            for a in frontier:
                for b in adj[a]:
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        pairs += [(i, j) for j in range(i + 1, n) if dist[j] > 3]
    reqm, ac, bd, ds_s, ds_v, role = _tables()
    tid = [TYPE_NAMES.index(t) for t in types]
    contrib = torch.tensor([(i, j, int({role[tid[i]], role[tid[j]]} == {1, 2})) for i, j in pairs],
                           dtype=torch.int32).reshape(-1, 3)
    charge = 0.25 * torch.randn(n, generator=g, dtype=torch.float64)
    hd = [i for i, t in enumerate(types) if t == "HD"]
    charge[hd] = 0.2 + 0.05 * torch.rand(len(hd), generator=g, dtype=torch.float64)
    q, _ = torch.linalg.qr(torch.randn(p_n, 3, 3, generator=g, dtype=torch.float64))
    coords = torch.einsum("pij,nj->pni", q, ref) + 4.0 * torch.randn(p_n, 1, 3, generator=g, dtype=torch.float64)
    coords = coords + 0.15 * torch.randn(p_n, n, 3, generator=g, dtype=torch.float64)
    to = lambda x: x.to(dt).contiguous().to(device)
    return (to(coords), contrib.to(device), torch.tensor(tid, dtype=torch.int32).to(device), to(charge),
            to(reqm), to(ac), to(bd), to(ds_s), to(ds_v), SMOOTH, QASP, W_DESOLV, COEFF_ELEC)


def reference(coords, contrib, atom_type, charge, reqm, vw_ac, vw_bd, ds_s, ds_v,
              smooth, qasp, w_desolv, w_elec) -> torch.Tensor:
    x = coords.double()
    a1, a2, hb = contrib[:, 0].long(), contrib[:, 1].long(), contrib[:, 2].long()
    t1, t2 = atom_type.long()[a1], atom_type.long()[a2]
    r = (x[:, a1] - x[:, a2]).pow(2).sum(-1).sqrt()                       # [P, C]
    reqm, ac, bd = reqm.double(), vw_ac.double(), vw_bd.double()
    half = 0.5 * smooth
    opt = reqm[hb, t1] + reqm[hb, t2]
    s = torch.where(r <= opt - half, r + half, torch.where(r >= opt + half, r - half, opt.expand_as(r)))
    s2 = s * s
    s6 = s2 * s2 * s2
    s_bd = torch.where(hb.bool(), s6 * s2 * s2, s6)
    e_vdw = torch.where(r < 8.0, ac[t1, t2] / (s6 * s6) - bd[t1, t2] / s_bd, torch.zeros_like(r))
    q = charge.double()
    q1, q2 = q[a1], q[a2]
    ss, vv = ds_s.double(), ds_v.double()
    r2 = r * r
    desolv = ((ss[t1] + qasp * q1.abs()) * vv[t2] + (ss[t2] + qasp * q2.abs()) * vv[t1]) * w_desolv \
        * (12.96 - 0.1063 * r2 * (1.0 - 0.001947 * r2)) / (12.96 + r2 * (0.4137 + r2 * (0.00357 + 0.000112 * r2)))
    elec = (1.105 / (r + 1.261) ** 2 + 0.0104) * w_elec * q1 * q2 / r
    e_far = torch.where(r < 20.48, desolv + elec, torch.zeros_like(r))
    return (e_vdw + e_far).sum(1).to(coords.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    c = s["N"] * (s["N"] - 1) // 2
    return {"bytes": 12 * s["P"] * s["N"] + 4 * s["P"] + 12 * c, "flops": 60 * s["P"] * c}
