"""All-pairs cosine distance of Oganov fingerprints (ASE ase.ga.ofp_comparator.OFPComparator._cosine_distance).

Each structure's OFP is the set of Gaussian-smeared partial pair-correlation functions F_AB(R) - 1, one per
element pair (A <= B), on nbins = rcut / binwidth bins (ASE defaults rcut = 20 A, binwidth = 0.05 A: 400
bins). With the pair weights w_AB = N_A N_B / sum N_A N_B of the (shared) stoichiometry:

    |fp|^2      = sum_AB w_AB |fp_AB|^2
    dist(p, q)  = 0.5 * (1 - sum_AB w_AB fp_AB(p) . fp_AB(q) / (|fp(p)| |fp(q)|))

Inputs are the fingerprints concatenated over the sorted pair keys, fp [P, D] with D = n_pairs * nbins,
and the per-feature weight w [D] (w_AB repeated over the pair's bins). Returns dist [P, P] fp32, the
matrix a GA / random-search run thresholds with cos_dist_max (5e-3) to drop duplicate candidates.
"""
import itertools
import math

import torch

META = {
    "name": "ofp_cosine_distance_matrix",
    "level": 2,
    "category": "crystal-fingerprint",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 24, "counts": [4, 8, 16], "nbins": 20, "binwidth": 0.3},
        "ragged": {"P": 37, "counts": [6, 15], "nbins": 33, "binwidth": 0.25},
        "large": {"P": 8192, "counts": [4, 8, 16], "nbins": 400, "binwidth": 0.05},
    },
    "baseline_notes": "Two launches: 40 programs scale the fingerprints by sqrt(w) and take their norms; then "
                      "20 programs (the A2's AI cores) loop over 128x128 output tiles, accumulate the inner "
                      "products with tl.dot over K chunks of 64 on the cube unit (fp32, ieee) and write "
                      "0.5 * (1 - dot / (|u_p| |u_q|)); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fp [P, n_pairs * nbins] (F_AB - 1 per pair, concatenated), w [n_pairs * nbins]."""
    s = META["sizes"][size]
    n_struct, counts, nbins = s["P"], s["counts"], s["nbins"]
    pairs = list(itertools.combinations_with_replacement(range(len(counts)), 2))
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    bw = s["binwidth"]
    sigma = max(0.06, 1.2 * bw)                                              # smearing, at least a bin
    r = bw * torch.arange(1, nbins + 1, dtype=torch.float32)
    shells = torch.sqrt(torch.arange(1, 13, dtype=torch.float32))          # shell radii / first shell
    # polymorph families: members are strained, slightly noisy copies of one prototype (near-duplicates)
    n_proto = max(2, n_struct // 6)
    r0 = 1.7 + 0.8 * torch.rand(n_proto, len(pairs), 1, generator=g)
    h = 0.5 + 2.5 * torch.rand(n_proto, len(pairs), 12, generator=g)
    rs = r0 * shells * (1.0 + 0.02 * torch.randn(n_proto, len(pairs), 12, generator=g))
    amp = h * (r0 / rs) ** 2                                                 # ASE's 1 / (4 pi R^2) weighting
    family = torch.randint(0, n_proto, (n_struct,), generator=g)
    strain = 1.0 + 0.004 * torch.randn(n_struct, 1, 1, generator=g)
    half = int(math.ceil(4.0 * sigma / bw))
    kernel = torch.exp(-0.5 * (bw * torch.arange(-half, half + 1, dtype=torch.float32) / sigma) ** 2)
    fp = torch.empty(n_struct, len(pairs), nbins)
    for start in range(0, n_struct, 1024):
        f = family[start:start + 1024]
        m = len(f)
        st = strain[start:start + 1024]
        # shells deposited on the bin grid (linear split between neighbours), then Gaussian-smeared
        pos = rs[f] * st / bw - 1.0                                          # bin coordinate, [m, pairs, 12]
        i0 = pos.floor().long()
        frac = pos - i0
        hist = torch.zeros(m, len(pairs), nbins + 2)
        for idx, wgt in ((i0, 1.0 - frac), (i0 + 1, frac)):
            ok = (idx >= 0) & (idx < nbins)
            hist.scatter_add_(2, idx.clamp(0, nbins) * ok + (nbins + 1) * ~ok, amp[f] * wgt)
        peaks = torch.nn.functional.conv1d(hist[..., :nbins].reshape(-1, 1, nbins), kernel.view(1, 1, -1),
                                           padding=half).reshape(m, len(pairs), nbins)
        rr = r / st
        a0 = r0[f]
        ramp = torch.sigmoid((rr - a0 * 1.3) / 0.4)
        inside = (rr >= 0.85 * a0).float()
        noise = 0.01 * torch.randn(m, len(pairs), nbins, generator=g)
        fp[start:start + m] = inside * (ramp + peaks + noise) - 1.0
    weights = torch.tensor([counts[a] * counts[b] for a, b in pairs], dtype=torch.float32)
    w = (weights / weights.sum()).repeat_interleave(nbins)
    return fp.reshape(n_struct, -1).to(dt).to(device), w.to(dt).to(device)


def reference(fp: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    x = fp.double() * torch.sqrt(w.double())[None, :]
    norm = x.norm(dim=1)
    dist = 0.5 * (1.0 - (x @ x.T) / (norm[:, None] * norm[None, :]))
    return dist.to(fp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p = s["P"]
    d = len(s["counts"]) * (len(s["counts"]) + 1) // 2 * s["nbins"]
    return {"bytes": 4 * (3 * p * d + p * p + d), "flops": 2 * p * p * d}
