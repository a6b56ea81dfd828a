"""Root site log-likelihoods of a protein alignment (BEAGLE calculateRootLogLikelihoods / getSiteLogLikelihoods).

At the root of the tree the Felsenstein partials L[c, p, s] (rate category c, site pattern p, state s) are
integrated over the equilibrium state frequencies pi and the discrete-gamma category weights w; the
cumulative log scale factors that dynamic rescaling removed on the way up are added back:
    lnL[p] = log( sum_c w_c * sum_s pi_s * L[c, p, s] ) + log_scale[p]
Amino-acid model (LG+G4): 20 states, stored padded to 32 as BEAGLE's GPU implementation does (padded
states carry zero partials and zero frequency). The weighted sum over patterns is taken by the caller.
"""
import torch

META = {
    "name": "beagle_root_site_lnl",
    "level": 2,
    "category": "phylogenetics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 64, "C": 4, "S": 20},
        "ragged": {"P": 301, "C": 4, "S": 20},
        "large": {"P": 250000, "C": 4, "S": 20},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 128 patterns; per block the "
                      "4 category tiles [128, 32] are loaded contiguously, multiplied by the frequencies "
                      "and reduced along the contiguous state axis, weighted by category, then log + scale "
                      "and one [128] store; no autotune.",
    "deterministic": True,
}
PADDED_STATES = 32


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """partials [C, P, 32] (rescaled root partials), cat_weights [C], freqs [32], log_scale [P]."""
    s = META["sizes"][size]
    P, C, S = s["P"], s["C"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    partials = torch.zeros(C, P, PADDED_STATES, dtype=torch.float64)
    raw = torch.rand(C, P, S, generator=g, dtype=torch.float64) ** 3 + 1e-6
    partials[:, :, :S] = raw / raw.amax(dim=(0, 2), keepdim=True)  # dynamic rescaling leaves max 1 per site
    freqs = torch.zeros(PADDED_STATES, dtype=torch.float64)
    f = torch.rand(S, generator=g, dtype=torch.float64) + 0.2
    freqs[:S] = f / f.sum()
    cat_weights = torch.full((C,), 1.0 / C, dtype=torch.float64)
    log_scale = -torch.rand(P, generator=g, dtype=torch.float64) * 60.0
    return tuple(t.to(dt).to(device) for t in (partials, cat_weights, freqs, log_scale))


def reference(partials: torch.Tensor, cat_weights: torch.Tensor, freqs: torch.Tensor,
              log_scale: torch.Tensor) -> torch.Tensor:
    site = torch.einsum("cps,s,c->p", partials.double(), freqs.double(), cat_weights.double())
    return (torch.log(site) + log_scale.double()).to(partials.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, C = s["P"], s["C"]
    return {"bytes": 4 * C * P * PADDED_STATES + 8 * P, "flops": 2 * C * P * PADDED_STATES + 3 * P}
