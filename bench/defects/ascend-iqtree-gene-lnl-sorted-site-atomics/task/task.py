"""Per-locus log-likelihoods of a concatenated alignment (IQ-TREE -wpl / partition lnL), DNA +G4.

For a super-alignment of G loci, the site patterns of all loci are stored back to back (each locus's
patterns contiguous, loci in order). At the root, with the root CLV clv[n, c, i] (site-major: rate
categories x states per pattern), the pattern log-likelihood is
    site_lnl[n] = log( sum_c w_c sum_i pi_i clv[n, c, i] ) + scale_num[n] * log(2^-256)
(scale_num counts the 2^256 rescalings applied below this node, IQ-TREE's LOG_SCALING_THRESHOLD),
and each locus g gets
    lnl[g] = sum_{n in locus g} ptn_freq[n] * site_lnl[n].
Inputs carry both the locus of every pattern (gene_of, sorted) and the CSR offsets gene_ptr [G+1].
Returns fp32 [G].
"""
import math

import torch

META = {
    "name": "locus_log_likelihoods",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 700, "G": 9},
        "ragged": {"P": 1999, "G": 23},
        "large": {"P": 1_000_000, "G": 2000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) take loci round-robin; each walks its locus's "
                      "pattern range [gene_ptr[g], gene_ptr[g+1]) in blocks of 256: a contiguous [256, 16] "
                      "CLV tile dotted with the 16 weights w_c * pi_i (built once per program), log, scaler "
                      "term, pattern frequency, a [256] accumulator reduced and stored once per locus. "
                      "No atomics, no autotune.",
    "deterministic": True,
}

CATS, STATES = 4, 4
GTR_FREQS = [0.29, 0.21, 0.22, 0.28]
LOG_SCALING_THRESHOLD = -256.0 * math.log(2.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """clv [P, 4, 4], scale_num uint8 [P], ptn_freq fp32 [P], gene_of int32 [P], gene_ptr int32 [G+1],
    state frequencies [4], rate-category weights [4]."""
    s = META["sizes"][size]
    P, G = s["P"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # locus lengths: random cut points, so loci range from a handful to thousands of patterns
    cuts = torch.sort(torch.randperm(P - 1, generator=g)[: G - 1] + 1).values
    gene_ptr = torch.cat([torch.zeros(1, dtype=torch.int64), cuts, torch.full((1,), P)])
    gene_of = torch.repeat_interleave(torch.arange(G), gene_ptr[1:] - gene_ptr[:-1])
    # root CLV of a scaled inner node: values spread over a few decades, some sites rescaled
    clv = torch.rand(P, CATS, STATES, generator=g, dtype=torch.float64) ** 4 * \
        torch.exp(-6.0 * torch.rand(P, 1, 1, generator=g, dtype=torch.float64)) + 1e-12
    u = torch.rand(P, generator=g)
    scale_num = torch.where(u < 0.08, 1, 0) + torch.where(u < 0.01, 1, 0)
    ptn_freq = torch.where(torch.rand(P, generator=g) < 0.7, 1.0,
                           torch.randint(2, 40, (P,), generator=g).double())
    pi = torch.tensor(GTR_FREQS, dtype=torch.float64)
    rate_w = torch.full((CATS,), 1.0 / CATS, dtype=torch.float64)
    return (clv.to(dt).to(device), scale_num.to(torch.uint8).to(device), ptn_freq.to(dt).to(device),
            gene_of.to(torch.int32).to(device), gene_ptr.to(torch.int32).to(device),
            pi.to(dt).to(device), rate_w.to(dt).to(device))


def reference(clv, scale_num, ptn_freq, gene_of, gene_ptr, pi, rate_w):
    w = rate_w.double()[:, None] * pi.double()[None, :]
    lh = (clv.double() * w).sum((1, 2))
    site = (torch.log(lh) + scale_num.double() * LOG_SCALING_THRESHOLD) * ptn_freq.double()
    G = gene_ptr.shape[0] - 1
    out = torch.zeros(G, dtype=torch.float64, device=clv.device)
    out.index_add_(0, gene_of.long(), site)
    return out.to(clv.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, G = s["P"], s["G"]
    return {"bytes": 73 * P + 8 * G, "flops": 36 * P}
