"""TorchMD-Net ExpNormalSmearing radial basis times CosineCutoff, per edge (Ascend port).

For every neighbour pair distance d (Angstrom) the equivariant transformer / TensorNet embed the
distance in num_rbf exponential-normal functions with trainable means and betas, damped by the
cosine cutoff envelope:
    alpha = 5 / (cutoff_upper - cutoff_lower)
    rbf[e, k] = 0.5 * (cos(pi * d_e / cutoff_upper) + 1) * [d_e < cutoff_upper]
                * exp(-betas[k] * (exp(alpha * (cutoff_lower - d_e)) - means[k]) ** 2)
(torchmd-net's ExpNormalSmearing.forward with CosineCutoff(0, cutoff_upper)). Means start at
linspace(exp(cutoff_lower - cutoff_upper), 1, num_rbf) and betas at
(2 / num_rbf * (1 - exp(cutoff_lower - cutoff_upper))) ** -2, then drift in training (here they are
perturbed). The distances come from a Verlet list with a 0.2 A skin, so some lie past the cutoff.
"""
import math

import torch

META = {
    "name": "expnorm_rbf_cosine_cutoff",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 256, "R": 32},
        "ragged": {"E": 333, "R": 50},
        "large": {"E": 1048576, "R": 32},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 64 edges; each block "
                      "loads its 64 distances once, computes the envelope and exp(alpha*(lower-d)) per "
                      "edge and broadcasts them against the [R] means/betas (loaded once per program) "
                      "into a [64, next_pow2(R)] tile stored row-major; no autotune.",
    "deterministic": True,
}
CUTOFF_LOWER = 0.0
CUTOFF_UPPER = 5.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dist [E], means [R], betas [R], cutoff_lower, cutoff_upper."""
    s = META["sizes"][size]
    e, r = s["E"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # pair distances of a liquid: density grows as d^2 up to the cutoff plus skin
    dist = 0.8 + (CUTOFF_UPPER + 0.2 - 0.8) * torch.rand(e, generator=g).pow(1.0 / 3.0)
    start = math.exp(CUTOFF_LOWER - CUTOFF_UPPER)
    means = torch.linspace(start, 1.0, r) + 0.01 * torch.randn(r, generator=g)
    betas = torch.full((r,), (2.0 / r * (1.0 - start)) ** -2) * (1.0 + 0.05 * torch.randn(r, generator=g))
    return (dist.to(device=device, dtype=dt), means.to(device=device, dtype=dt),
            betas.to(device=device, dtype=dt), CUTOFF_LOWER, CUTOFF_UPPER)


def reference(dist: torch.Tensor, means: torch.Tensor, betas: torch.Tensor,
              cutoff_lower: float, cutoff_upper: float) -> torch.Tensor:
    d = dist.double().unsqueeze(-1)
    alpha = 5.0 / (cutoff_upper - cutoff_lower)
    env = 0.5 * (torch.cos(d * math.pi / cutoff_upper) + 1.0) * (d < cutoff_upper).double()
    rbf = env * torch.exp(-betas.double() * (torch.exp(alpha * (cutoff_lower - d)) - means.double()) ** 2)
    return rbf.to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["E"] + 8 * s["R"] + 4 * s["E"] * s["R"], "flops": 8 * s["E"] * s["R"]}
