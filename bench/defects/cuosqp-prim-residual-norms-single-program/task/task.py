"""OSQP primal residual and its tolerance terms on the unscaled problem (cuOSQP compute_prim_res / compute_prim_tol).

With the Ruiz scaling Einv of the constraint rows, the ADMM termination check needs
||Einv (Ax - z)||_inf, ||Einv Ax||_inf and ||Einv z||_inf over the m constraint rows; the result is
the three norms as one fp32 tensor [3].
"""
import torch

META = {
    "name": "admm_prim_residual_norms",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 3000},
        "ragged": {"M": 10007},
        "large": {"M": 12000000},
    },
    "baseline_notes": "cdiv(m, 8192) programs, each reduces one 8192-row chunk of the three abs-maxes and "
                      "combines them with three tl.atomic_max into a zero-initialised [3] output; 8 warps, "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Ax [m], z [m] (Ax projected onto the bounds, mostly equal), Einv [m] positive row scaling."""
    m = META["sizes"][size]["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ax = torch.randn(m, generator=g) * 3.0
    lo = -torch.rand(m, generator=g) * 4.0
    hi = torch.rand(m, generator=g) * 4.0
    z = torch.minimum(torch.maximum(ax, lo), hi)
    einv = torch.exp(torch.randn(m, generator=g) * 0.5)
    return ax.to(dt).to(device), z.to(dt).to(device), einv.to(dt).to(device)


def reference(ax: torch.Tensor, z: torch.Tensor, einv: torch.Tensor) -> torch.Tensor:
    a, zz, e = ax.double(), z.double(), einv.double()
    norms = torch.stack([(e * (a - zz)).abs().max(), (e * a).abs().max(), (e * zz).abs().max()])
    return norms.to(ax.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    m = META["sizes"][size]["M"]
    return {"bytes": 12 * m + 12, "flops": 7 * m}
