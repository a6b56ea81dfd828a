"""Gaussian radial basis expansion of edge distances (PyG SchNet GaussianSmearing, OCP SchNet S2EF).

For every radius-graph edge e with distance d_e and every Gaussian k with centre mu_k
(offset = linspace(0, cutoff, K)), out[e, k] = exp(coeff * (d_e - mu_k)^2) with
coeff = -0.5 / (mu_1 - mu_0)^2. The [E, K] fp32 output feeds the filter network of every
interaction block.
"""
import torch

META = {
    "name": "gaussian_smearing",
    "level": 1,
    "category": "gnn",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 300, "K": 50, "cutoff": 6.0},
        "ragged": {"E": 1001, "K": 37, "cutoff": 5.0},
        "large": {"E": 120000, "K": 200, "cutoff": 6.0},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores of an Atlas A2 910B4); each loops over "
                      "blocks of 8192 // next_pow2(K) edges (32 at K = 200) and writes a [block, next_pow2(K)] "
                      "tile of the row-major output (rows of K contiguous values); centres loaded once per program.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dist [E] (radius-graph distances in [0, cutoff)), offset [K] (Gaussian centres), coeff (float)."""
    s = META["sizes"][size]
    E, K, cutoff = s["E"], s["K"], s["cutoff"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # neighbours inside a sphere: the radius of a uniform point goes as u^(1/3)
    dist = cutoff * torch.rand(E, generator=g) ** (1.0 / 3.0)
    offset = torch.linspace(0.0, cutoff, K)
    coeff = -0.5 / (offset[1] - offset[0]).item() ** 2
    return dist.to(dt).to(device), offset.to(dt).to(device), coeff


def reference(dist: torch.Tensor, offset: torch.Tensor, coeff: float) -> torch.Tensor:
    diff = dist.double()[:, None] - offset.double()[None, :]
    return torch.exp(coeff * diff * diff).to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["E"] + 4 * s["K"] + 4 * s["E"] * s["K"], "flops": 4 * s["E"] * s["K"]}
