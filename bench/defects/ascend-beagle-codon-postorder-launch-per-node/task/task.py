"""Post-order Felsenstein pruning over a whole tree under a codon model (BEAGLE updatePartials with an
operation list, dynamic rescaling; as BEAST calls it for a codon alignment).

Every internal node n with children a, b gets, for each rate category c, site pattern p and state i,
    v[c, p, i] = ( sum_j Pa[c, i, j] * L_a[c, p, j] ) * ( sum_j Pb[c, i, j] * L_b[c, p, j] )
    L_n[c, p, i] = v[c, p, i] / max_i v[c, p, i],      log_scale[n, c, p] = log max_i v[c, p, i]
(rescaling per category, as RAxML-NG's per-rate scalers), where Pa = P(r_c t_a) is the transition matrix
of the branch above child a. Codon model (Goldman-Yang style: kappa, omega, 61 sense codons of the standard
code) + G4; BEAGLE's GPU implementation pads 61 states to 64 (padded rows, columns and partials are zero).

Inputs: tip partials [N, C, P, 64] (one-hot codons, all-ones over the 61 codons where the codon is
missing), transition matrices [2N - 2, C, 64, 64] indexed by the child node id of the branch, the
operation list ops [N - 1, 3] int32 (dest, child a, child b; node ids: tips 0..N-1, internal nodes
N..2N-2) in a post-order grouped by tree level, and level_sizes, the number of operations of each level
(operations inside one level are independent). Returns the internal partials [N - 1, C, P, 64] (row n - N
for node n) and their log scale factors [N - 1, C, P].
"""
import torch

META = {
    "name": "beagle_codon_postorder_pruning",
    "level": 3,
    "category": "phylogenetics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 6, "P": 20, "C": 4},
        "ragged": {"N": 11, "P": 37, "C": 4},
        "large": {"N": 512, "P": 566, "C": 4},
    },
    "baseline_notes": "One launch per tree level (BEAGLE's batched operation list): grid (4 categories x 5) = "
                      "20 programs, the A2's AI cores; each program walks the level's operations, loads the "
                      "two 64x64 matrices of its category and, for its blocks of 64 patterns, the children's "
                      "[64, 64] partials, two tl.dot on the cube, product, row max, rescale, store; no autotune.",
    "deterministic": True,
}
PADDED_STATES = 64
GAMMA_RATES = (0.0334, 0.2519, 0.8203, 2.8944)  # discrete gamma, alpha = 0.5
CODE = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG"  # standard code, TCAG order
BASES = "TCAG"


def _codon_model(g: torch.Generator, kappa: float = 2.5, omega: float = 0.3):
    """Sense codons and the symmetric eigen-system of a GY94-style rate matrix: (pi, U, lam)."""
    codons = [(a, b, c) for a in range(4) for b in range(4) for c in range(4) if CODE[16 * a + 4 * b + c] != "*"]
    aa = [CODE[16 * a + 4 * b + c] for a, b, c in codons]
    n = len(codons)
    pi = torch.rand(n, generator=g, dtype=torch.float64) + 0.3
    pi = pi / pi.sum()
    r = torch.zeros(n, n, dtype=torch.float64)
    for x in range(n):
        for y in range(n):
            diff = [k for k in range(3) if codons[x][k] != codons[y][k]]
            if len(diff) != 1:
                continue
            u, v = BASES[codons[x][diff[0]]], BASES[codons[y][diff[0]]]
            rate = kappa if {u, v} in ({"C", "T"}, {"A", "G"}) else 1.0
            r[x, y] = rate * (omega if aa[x] != aa[y] else 1.0)
    q = r * pi[None, :]
    q -= torch.diag(q.sum(1))
    q /= -(pi * torch.diagonal(q)).sum()
    sq = pi.sqrt()
    lam, u = torch.linalg.eigh(sq[:, None] * q / sq[None, :])
    return pi, sq, u, lam


def _random_tree(g: torch.Generator, n_tips: int):
    """Random coalescent topology: ops (dest, a, b) grouped by level, and the level sizes."""
    active = list(range(n_tips))
    level = [0] * (2 * n_tips - 1)
    ops = []
    nxt = n_tips
    while len(active) > 1:
        i, j = torch.randperm(len(active), generator=g)[:2].tolist()
        a, b = active[i], active[j]
        active = [x for k, x in enumerate(active) if k not in (i, j)] + [nxt]
        level[nxt] = 1 + max(level[a], level[b])
        ops.append((nxt, a, b))
        nxt += 1
    ops.sort(key=lambda op: (level[op[0]], op[0]))
    sizes = [0] * max(level)
    for op in ops:
        sizes[level[op[0]] - 1] += 1
    return ops, tuple(sizes)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tips [N, C, P, 64], matrices [2N-2, C, 64, 64], ops [N-1, 3] int32, level_sizes (tuple of int)."""
    s = META["sizes"][size]
    N, P, C = s["N"], s["P"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pi, sq, u, lam = _codon_model(g)
    n = pi.numel()
    state = torch.randint(0, n, (N, P), generator=g)
    tips = torch.zeros(N, P, PADDED_STATES, dtype=torch.float64)
    tips.scatter_(2, state[:, :, None], 1.0)
    missing = torch.rand(N, P, generator=g) < 0.03
    tips[missing, :n] = 1.0
    tips = tips[:, None].expand(N, C, P, PADDED_STATES)
    t = -torch.log(torch.rand(2 * N - 2, generator=g, dtype=torch.float64)) * 0.06 + 0.002
    rates = torch.tensor(GAMMA_RATES[:C], dtype=torch.float64)
    e = torch.exp(lam[None, None, :] * (t[:, None] * rates[None, :])[:, :, None])  # [E, C, n]
    core = torch.einsum("ik,eck,jk->ecij", u, e, u) * (sq[None, :] / sq[:, None])[None, None]
    mats = torch.zeros(2 * N - 2, C, PADDED_STATES, PADDED_STATES, dtype=torch.float64)
    mats[:, :, :n, :n] = core.clamp_min(0.0)
    ops, level_sizes = _random_tree(g, N)
    return (tips.to(dt).contiguous().to(device), mats.to(dt).to(device),
            torch.tensor(ops, dtype=torch.int32, device=device), level_sizes)


def reference(tips: torch.Tensor, matrices: torch.Tensor, ops: torch.Tensor, level_sizes: tuple) -> tuple:
    N = tips.shape[0]
    inner = torch.zeros((N - 1,) + tuple(tips.shape[1:]), dtype=torch.float64, device=tips.device)
    scale = torch.zeros(tuple(inner.shape[:3]), dtype=torch.float64, device=tips.device)
    mats = matrices.double()

    def partials(node: int) -> torch.Tensor:
        return tips[node].double() if node < N else inner[node - N]

    for dest, a, b in ops.tolist():
        v = (torch.einsum("cij,cpj->cpi", mats[a], partials(a))
             * torch.einsum("cij,cpj->cpi", mats[b], partials(b)))
        vmax = v.amax(dim=2)
        inner[dest - N] = v / vmax[:, :, None]
        scale[dest - N] = torch.log(vmax)
    return inner.to(tips.dtype), scale.to(tips.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, P, C = s["N"], s["P"], s["C"]
    per_op = 4 * C * P * (3 * PADDED_STATES + 1) + 8 * C * PADDED_STATES ** 2
    return {"bytes": (N - 1) * per_op, "flops": (N - 1) * C * P * (4 * PADDED_STATES ** 2 + 3 * PADDED_STATES)}
