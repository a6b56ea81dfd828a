"""Sinkhorn-Knopp column scaling step (POT ot.bregman.sinkhorn_knopp: v = b / (K^T u)).

K = exp(-C / reg) is the Gibbs kernel of a squared-Euclidean cost between N source and M target
points, u the current row scaling, b the target histogram; the step returns the new column
scaling v[j] = b[j] / sum_i K[i, j] u[i].
"""
import torch

META = {
    "name": "sinkhorn_col_scaling",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 48, "M": 40},
        "ragged": {"N": 77, "M": 53},
        "large": {"N": 8192, "M": 8192},
    },
    "baseline_notes": "One program per 32 columns, loops over the rows in [256, 32] tiles (columns contiguous), "
                      "accumulates K * u in a register tile and reduces it over the rows once at the end; "
                      "8 warps, no autotune.",
    "deterministic": True,
}

REG = 0.1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """K [N, M] Gibbs kernel, u [N] row scaling (positive), b [M] target histogram."""
    s = META["sizes"][size]
    N, M = s["N"], s["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xs = torch.rand(N, 2, generator=g)
    xt = torch.rand(M, 2, generator=g) * 0.9 + 0.05
    cost = torch.cdist(xs.double(), xt.double()) ** 2
    K = torch.exp(-cost / REG)
    u = (0.5 + torch.rand(N, generator=g, dtype=torch.float64)) / N
    b = torch.rand(M, generator=g, dtype=torch.float64) + 0.1
    b = b / b.sum()
    return K.to(dt).to(device), u.to(dt).to(device), b.to(dt).to(device)


def reference(K: torch.Tensor, u: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    ktu = K.double().t() @ u.double()
    return (b.double() / ktu).to(K.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["M"] + 4 * s["N"] + 8 * s["M"], "flops": 2 * s["N"] * s["M"]}
