"""Collision event of a k-eigenvalue generation (OpenMC event mode, analog absorption, eigenvalue run mode).

For every particle in the collision queue, with the macroscopic cross sections the calculate_xs event left
(Sigma_t, Sigma_a, nu-Sigma_f) and two random numbers per particle:
    collision estimator of k:   K_COLLISION  += wgt * nuSf / St
    fission sites banked:       n_sites = floor(wgt / keff * nuSf / St + xi_f)   (create_fission_sites)
    analog absorption:          absorbed = xi_a < Sa / St
    absorption estimator of k:  K_ABSORPTION += wgt * nuSf / Sa   for absorbed particles, whose weight goes to 0
Returns (weight after the collision [N] fp32, n_sites [N] int32, global tallies [2] fp32 =
(K_COLLISION, K_ABSORPTION) summed over the queue).
"""
import torch

META = {
    "name": "mc_collision_keff",
    "level": 2,
    "category": "monte-carlo-transport",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 1237},
        "large": {"N": 4194304},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over blocks of 1024 particles: contiguous loads "
                      "of the weight, the three cross-section rows and the two random-number rows, the per-particle "
                      "outputs stored per block, the two k estimators kept in [1024] register accumulators and "
                      "added into the global tallies with one atomic each per program at the end; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """wgt [N], xs [3, N] = (Sigma_t, Sigma_a, nu-Sigma_f) in 1/cm, prn [2, N] = (xi_a, xi_f), keff (float)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    wgt = 0.5 + torch.rand(n, generator=g)
    sigma_t = 0.3 + 1.7 * torch.rand(n, generator=g)
    sigma_a = sigma_t * (0.01 + 0.3 * torch.rand(n, generator=g))
    fuel = torch.rand(n, generator=g) < 0.4                     # collisions in fuel vs moderator/clad
    nu_sigma_f = torch.where(fuel, sigma_a * (0.8 + 1.4 * torch.rand(n, generator=g)), torch.zeros(n))
    xs = torch.stack([sigma_t, sigma_a, nu_sigma_f]).contiguous()
    prn = torch.rand(2, n, generator=g)
    return wgt.to(device=device, dtype=dt), xs.to(device=device, dtype=dt), prn.to(device=device, dtype=dt), 1.0213


def reference(wgt: torch.Tensor, xs: torch.Tensor, prn: torch.Tensor, keff: float) -> tuple:
    st, sa, nsf = xs[0], xs[1], xs[2]
    xi_a, xi_f = prn[0], prn[1]
    k_col = wgt * nsf / st
    n_sites = torch.floor(k_col * (1.0 / keff) + xi_f).to(torch.int32)
    absorbed = xi_a < sa / st
    k_abs = torch.where(absorbed, wgt * nsf / sa, torch.zeros_like(wgt))
    tallies = torch.stack([k_col.double().sum(), k_abs.double().sum()]).to(wgt.dtype)
    return torch.where(absorbed, torch.zeros_like(wgt), wgt), n_sites, tallies


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": (4 * 6 + 4 + 4) * n + 8, "flops": 12 * n}
