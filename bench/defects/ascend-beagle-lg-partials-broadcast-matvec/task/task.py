"""Felsenstein pruning step for two internal children (BEAGLE updatePartials, partials x partials, no scaling).

For every rate category c, site pattern p and parent state i the parent's conditional likelihood is
    dest[c, p, i] = ( sum_j M1[c, i, j] * L1[c, p, j] ) * ( sum_j M2[c, i, j] * L2[c, p, j] )
where M1, M2 are the transition matrices P(r_c * t) of the two child branches and L1, L2 the children's
partials. Amino-acid model LG+G4 (20 states, 4 discrete-gamma categories); BEAGLE's GPU implementation pads
20 states to 32 (padded rows and columns of the matrices and padded partials are zero), so every row is
32 fp32 values. Layout as in BEAGLE: partials [C, P, 32], matrices [C, 32, 32] row-major (row = parent state).
"""
import torch

META = {
    "name": "beagle_partials_partials_aa",
    "level": 2,
    "category": "phylogenetics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 40, "C": 4, "S": 20},
        "ragged": {"P": 77, "C": 4, "S": 20},
        "large": {"P": 100000, "C": 4, "S": 20},
    },
    "baseline_notes": "Grid (4 categories x 10 programs); each program loads its category's two 32x32 matrices "
                      "once, then loops over blocks of 128 patterns: two contiguous [128, 32] partial tiles, "
                      "two tl.dot with the transposed matrices on the cube unit, their product stored; no autotune.",
    "deterministic": True,
}
PADDED_STATES = 32
GAMMA_RATES = (0.0334, 0.2519, 0.8203, 2.8944)  # discrete gamma, alpha = 0.5, 4 categories


def _transition_matrices(g: torch.Generator, S: int, t: float) -> torch.Tensor:
    """P(r_c t) of a random time-reversible model on S states, padded to 32: [C, 32, 32] fp64."""
    pi = torch.rand(S, generator=g, dtype=torch.float64) + 0.2
    pi = pi / pi.sum()
    r = torch.rand(S, S, generator=g, dtype=torch.float64) * 2.0 + 0.05
    r = (r + r.T) / 2
    q = r * pi[None, :]
    q.fill_diagonal_(0.0)
    q -= torch.diag(q.sum(1))
    q /= -(pi * torch.diagonal(q)).sum()
    mats = torch.zeros(len(GAMMA_RATES), PADDED_STATES, PADDED_STATES, dtype=torch.float64)
    for c, rate in enumerate(GAMMA_RATES):
        mats[c, :S, :S] = torch.linalg.matrix_exp(q * rate * t)
    return mats


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """partials1, partials2 [C, P, 32]; matrices1, matrices2 [C, 32, 32]."""
    s = META["sizes"][size]
    P, C, S = s["P"], s["C"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    parts = []
    for _ in range(2):
        lk = torch.zeros(C, P, PADDED_STATES, dtype=torch.float64)
        raw = torch.rand(C, P, S, generator=g, dtype=torch.float64) ** 4 + 1e-4
        lk[:, :, :S] = raw / raw.amax(dim=(0, 2), keepdim=True)
        parts.append(lk)
    m1 = _transition_matrices(g, S, 0.05 + 0.2 * torch.rand(1, generator=g).item())
    m2 = _transition_matrices(g, S, 0.05 + 0.2 * torch.rand(1, generator=g).item())
    return tuple(t.to(dt).to(device) for t in (parts[0], parts[1], m1[:C], m2[:C]))


def reference(partials1: torch.Tensor, partials2: torch.Tensor, matrices1: torch.Tensor,
              matrices2: torch.Tensor) -> torch.Tensor:
    a = torch.einsum("cij,cpj->cpi", matrices1.double(), partials1.double())
    b = torch.einsum("cij,cpj->cpi", matrices2.double(), partials2.double())
    return (a * b).to(partials1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, C = s["P"], s["C"]
    return {"bytes": 12 * C * P * PADDED_STATES + 8 * C * PADDED_STATES ** 2,
            "flops": 4 * C * P * PADDED_STATES ** 2 + C * P * PADDED_STATES}
