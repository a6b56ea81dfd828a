"""SchNet continuous-filter generator: per-edge Gaussian RBF expansion -> Dense + shifted softplus -> Dense,
scaled by the cosine cutoff (schnetpack SchNetInteraction filter_network(f_ij) * rcut_ij)."""
import math

import torch

META = {
    "name": "schnet_cfconv_filters",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"E": 40, "K": 20, "F": 32},
        "ragged": {"E": 37, "K": 25, "F": 48},
        "large": {"E": 262144, "K": 50, "F": 128},
    },
    "baseline_notes": "Grid over blocks of 64 edges: build the [64, K] RBF tile in registers, tl.dot with W1^T, "
                      "bias + shifted softplus, tl.dot with W2^T, bias, cosine cutoff, one [64, F] store; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Edge distances d [E] in Angstrom, filter-network weights in nn.Linear layout (w1 [F, K], b1 [F], w2 [F, F],
    b2 [F]) and the 5 A cutoff."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    E, K, F = s["E"], s["K"], s["F"]
    cutoff = 5.0
    dist = 0.7 + (cutoff - 0.6) * torch.rand(E, generator=g)  # a few pairs just beyond the cutoff
    w1 = torch.randn(F, K, generator=g) * math.sqrt(2.0 / (K + F))
    b1 = 0.1 * torch.randn(F, generator=g)
    w2 = torch.randn(F, F, generator=g) * math.sqrt(2.0 / (2 * F))
    b2 = 0.1 * torch.randn(F, generator=g)
    return tuple(t.to(dt).to(device) for t in (dist, w1, b1, w2, b2)) + (cutoff,)


def reference(dist: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor, b2: torch.Tensor,
              cutoff: float) -> torch.Tensor:
    d = dist.double()
    K = w1.shape[1]
    offsets = torch.linspace(0.0, cutoff, K, dtype=torch.float64, device=d.device)
    width = cutoff / (K - 1)
    rbf = torch.exp(-0.5 / width**2 * (d[:, None] - offsets[None, :]) ** 2)
    h = torch.nn.functional.softplus(rbf @ w1.double().T + b1.double()) - math.log(2.0)
    w = h @ w2.double().T + b2.double()
    rcut = 0.5 * (torch.cos(d * math.pi / cutoff) + 1.0) * (d < cutoff)
    return (w * rcut[:, None]).to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    E, K, F = s["E"], s["K"], s["F"]
    return {"bytes": 4 * (E + F * K + F * F + 2 * F + E * F), "flops": 2 * E * F * (K + F)}
