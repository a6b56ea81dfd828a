"""Per-equation RMS of the flow residual (SU2 CSolver::SetResidual_RMS, compressible RANS flow solver).

The residual is stored point-major, res[iPoint, iVar] for the nVar = nDim + 2 = 5 conservative
equations (rho, rho*u, rho*v, rho*w, rho*E); the monitor value of each equation is
sqrt(sum_i res[i, v]^2 / nPoint), printed (as log10) every iteration and used for convergence.
"""
import torch

META = {
    "name": "fv_residual_rms",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1000, "V": 5},
        "ragged": {"N": 3001, "V": 5},
        "large": {"N": 16_000_000, "V": 5},
    },
    "baseline_notes": "One launch over [1024, 8] point x equation tiles of the point-major residual (5 of 8 columns "
                      "live), sum of squares per column into per-program partials, then one program that "
                      "adds the partials and takes sqrt(sum / N); 8 warps, no autotune.",
    "deterministic": True,
}

# typical magnitudes of the five equation residuals in a transonic RANS run (density, momentum, energy)
_SCALE = (1e-3, 0.3, 0.3, 0.3, 250.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """res [N, V] point-major residual."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.tensor(_SCALE[: s["V"]])
    # residuals concentrate near shocks and walls: a heavy-tailed magnitude per point
    hot = torch.exp(2.0 * torch.randn(s["N"], 1, generator=g))
    res = torch.randn(s["N"], s["V"], generator=g) * scale * hot
    return (res.to(dt).to(device),)


def reference(res: torch.Tensor) -> torch.Tensor:
    r = res.double()
    return torch.sqrt((r * r).sum(0) / r.shape[0]).to(res.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] * s["V"] + 4 * s["V"], "flops": 2 * s["N"] * s["V"]}
