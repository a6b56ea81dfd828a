"""Tip-tip CLV update of Felsenstein pruning (RAxML-NG / libpll-2 pll_core_update_partial_tt), DNA GTR+G4.

At a cherry (an inner node whose two children are tips) the parent's conditional likelihood vector is
    clv[n, c, i] = (sum_j P_l[c, i, j] [j in tip_l(n)]) * (sum_j P_r[c, i, j] [j in tip_r(n)])
for site pattern n, rate category c and state i, where P_x[c] = exp(Q r_c t_x) are the two branches'
transition matrices (one per discrete-Gamma category) and tip_x(n) is the tip's IUPAC character as
libpll's nucleotide tipmap stores it: a 4-bit set of states (A=1, C=2, G=4, T=8, R=A|G=5, ...,
gap / N = 15). Tip characters are uint8 [P]; the CLV is fp32 [P, 4 categories, 4 states]
(libpll's site-major layout, rate categories x states per site). No scaling: tip-tip CLVs cannot
underflow.
"""
import torch

META = {
    "name": "tiptip_clv_update",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"P": 200},
        "ragged": {"P": 1001},
        "large": {"P": 1_000_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 site patterns; the "
                      "four columns of each P matrix (16 values: 4 categories x 4 states) are loaded once "
                      "per program, each tip's state set is decoded with shifts into four 0/1 lanes and "
                      "combined with the columns by multiply-adds on a [256, 16] tile; one contiguous "
                      "16 KiB store per block. No autotune.",
    "deterministic": True,
}

CATS, STATES = 4, 4
GAMMA_RATES = [0.033388, 0.251916, 0.820268, 2.894428]   # discrete Gamma, alpha = 0.5
GTR_EXCH = [1.21, 3.95, 0.84, 1.07, 4.62, 1.00]          # AC AG AT CG CT GT
GTR_FREQS = [0.29, 0.21, 0.22, 0.28]


def _pmatrices(t: float) -> torch.Tensor:
    """exp(Q r_c t) for the four Gamma categories, fp64 [4, 4, 4]."""
    pi = torch.tensor(GTR_FREQS, dtype=torch.float64)
    r = torch.zeros(4, 4, dtype=torch.float64)
    iu = torch.triu_indices(4, 4, 1)
    r[iu[0], iu[1]] = torch.tensor(GTR_EXCH, dtype=torch.float64)
    r = r + r.T
    q = r * pi[None, :]
    q = q - torch.diag(q.sum(1))
    q = q / -(pi * torch.diag(q)).sum()
    rates = torch.tensor(GAMMA_RATES, dtype=torch.float64)
    return torch.stack([torch.linalg.matrix_exp(q * rc * t) for rc in rates])


def _tipchars(n: int, g: torch.Generator) -> torch.Tensor:
    """Mostly unambiguous bases, ~6% gaps / N, ~1.5% two-state ambiguity codes."""
    base = torch.tensor([1, 2, 4, 8], dtype=torch.int64)[torch.randint(0, 4, (n,), generator=g)]
    u = torch.rand(n, generator=g)
    amb = torch.tensor([5, 10, 3, 12, 9, 6], dtype=torch.int64)[torch.randint(0, 6, (n,), generator=g)]
    code = torch.where(u < 0.06, torch.full_like(base, 15), torch.where(u < 0.075, amb, base))
    return code.to(torch.uint8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tip_l, tip_r uint8 [P] (4-bit state sets), P_l, P_r [4 categories, 4, 4]."""
    P = META["sizes"][size]["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tip_l, tip_r = _tipchars(P, g), _tipchars(P, g)
    # sibling tips: the right tip agrees with the left at most sites, as in a real cherry
    same = torch.rand(P, generator=g) < 0.8
    tip_r = torch.where(same, tip_l, tip_r)
    pl = _pmatrices(0.0412).to(dt)
    pr = _pmatrices(0.1375).to(dt)
    return tip_l.to(device), tip_r.to(device), pl.to(device), pr.to(device)


def reference(tip_l, tip_r, pmat_l, pmat_r):
    bits = torch.tensor([1, 2, 4, 8], device=tip_l.device)
    sl = ((tip_l.long()[:, None] & bits) != 0).double()      # [P, j]
    sr = ((tip_r.long()[:, None] & bits) != 0).double()
    vl = torch.einsum("cij,nj->nci", pmat_l.double(), sl)
    vr = torch.einsum("cij,nj->nci", pmat_r.double(), sr)
    return (vl * vr).to(pmat_l.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    P = META["sizes"][size]["P"]
    return {"bytes": 64 * P + 2 * P, "flops": 17 * 16 * P}
