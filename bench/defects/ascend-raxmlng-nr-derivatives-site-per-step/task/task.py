"""Branch-length derivatives for Newton-Raphson (RAxML-NG / libpll-2 pll_core_likelihood_derivatives), DNA GTR+G4.

RAxML-NG optimises one branch at a time. Before the Newton-Raphson iterations it builds the branch's
"sumtable" once (pll_update_sumtable): for every site pattern n, rate category c and eigen-index k,
    sumtable[n, c, k] = (sum_i pi_i L[n,c,i] U[i,k]) * (sum_j Uinv[k,j] R[n,c,j])
from the two CLVs at the ends of the branch and the eigen-decomposition Q = U diag(lambda) Uinv of the
GTR rate matrix. Every Newton step at branch length t then evaluates, with the diagonal table
    d0[c,k] = w_c exp(lambda_k r_c t),  d1[c,k] = lambda_k r_c d0[c,k],  d2[c,k] = (lambda_k r_c)^2 d0[c,k]
(w_c the rate-category weights, r_c the discrete-Gamma rates), the per-site sums
    s_m[n] = sum_{c,k} sumtable[n,c,k] * d_m[c,k]      (m = 0, 1, 2; s0 is the site likelihood)
and the weighted totals over the pattern weights (site-pattern multiplicities) f_n:
    dlnL/dt   = sum_n f_n * s1/s0
    d2lnL/dt2 = sum_n f_n * (s2/s0 - (s1/s0)^2)
Returns fp32 [2] = (first derivative, second derivative). Per-site scalers cancel in the ratios.
"""
import torch

META = {
    "name": "nr_branch_derivatives",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 300},
        "ragged": {"P": 1001},
        "large": {"P": 1_000_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 site patterns: a "
                      "contiguous [256, 16] fp32 tile of the sumtable (4 rate categories x 4 eigen-"
                      "indices) times the three 16-entry diagonal tables (built once per program), "
                      "row sums, ratios, per-lane weighted accumulators; each program writes its two "
                      "partial sums and a one-program kernel adds the 40 partials. No autotune.",
    "deterministic": True,
}

CATS, STATES = 4, 4
# discrete-Gamma (mean of each quartile, Yang 1994) for alpha = 0.5
GAMMA_RATES = [0.033388, 0.251916, 0.820268, 2.894428]
# GTR exchangeabilities AC, AG, AT, CG, CT, GT and base frequencies A, C, G, T
GTR_EXCH = [1.21, 3.95, 0.84, 1.07, 4.62, 1.00]
GTR_FREQS = [0.29, 0.21, 0.22, 0.28]


def _gtr_eigen():
    pi = torch.tensor(GTR_FREQS, dtype=torch.float64)
    r = torch.zeros(4, 4, dtype=torch.float64)
    iu = torch.triu_indices(4, 4, 1)
    r[iu[0], iu[1]] = torch.tensor(GTR_EXCH, dtype=torch.float64)
    r = r + r.T
    q = r * pi[None, :]
    q = q - torch.diag(q.sum(1))
    q = q / -(pi * torch.diag(q)).sum()
    sq = pi.sqrt()
    s = sq[:, None] * q / sq[None, :]
    lam, w = torch.linalg.eigh((s + s.T) / 2)
    u = w / sq[:, None]
    uinv = w.T * sq[None, :]
    return pi, lam, u, uinv


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sumtable [P, 4, 4], pattern weights [P] int32, eigenvalues [4], Gamma rates [4], category weights [4], t."""
    P = META["sizes"][size]["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pi, lam, u, uinv = _gtr_eigen()
    # CLVs at both ends of the branch: positive, with the dynamic range of inner nodes
    left = torch.rand(P, CATS, STATES, generator=g, dtype=torch.float64) ** 3 + 1e-4
    right = torch.rand(P, CATS, STATES, generator=g, dtype=torch.float64) ** 3 + 1e-4
    lterm = torch.einsum("nci,i,ik->nck", left, pi, u)
    rterm = torch.einsum("kj,ncj->nck", uinv, right)
    sumtable = lterm * rterm
    weights = torch.randint(1, 6, (P,), generator=g, dtype=torch.int32)
    rates = torch.tensor(GAMMA_RATES, dtype=torch.float64)
    rate_w = torch.full((CATS,), 1.0 / CATS, dtype=torch.float64)
    t = 0.0837
    return (sumtable.to(dt).to(device), weights.to(device), lam.to(dt).to(device),
            rates.to(dt).to(device), rate_w.to(dt).to(device), t)


def reference(sumtable, weights, eigvals, rates, rate_w, t):
    st = sumtable.double()
    lr = rates.double()[:, None] * eigvals.double()[None, :]          # [c, k]
    d0 = rate_w.double()[:, None] * torch.exp(lr * t)
    d1 = lr * d0
    d2 = lr * lr * d0
    s0 = (st * d0).sum((1, 2))
    s1 = (st * d1).sum((1, 2))
    s2 = (st * d2).sum((1, 2))
    f = weights.double()
    r1 = s1 / s0
    out = torch.stack([(f * r1).sum(), (f * (s2 / s0 - r1 * r1)).sum()])
    return out.to(sumtable.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    P = META["sizes"][size]["P"]
    return {"bytes": 64 * P + 4 * P, "flops": 110 * P}
