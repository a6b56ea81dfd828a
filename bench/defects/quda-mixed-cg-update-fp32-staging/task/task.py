"""Fused BLAS update of QUDA's mixed-precision conjugate gradient (invert_cg with a half-precision sloppy solver).

One CG iteration after the sloppy matrix-vector product Ap = M p:

    x  <- x + alpha p        (the iterate, kept in single precision between reliable updates)
    r  <- r - alpha Ap       (the sloppy residual, stored back in half precision)
    r2 <- |r|^2              (computed from the single-precision value before it is rounded)

as QUDA fuses it (blas::axpyNorm on r plus the x update of the CG loop). The fields are Wilson spinors
[V, 4 spin, 3 colour, 2 re/im]: x fp32; r, p, Ap in the sloppy precision (fp16). alpha is a host float.
Returns (x' fp32, r' fp16, r2 fp32 0-d tensor).
"""
import torch

META = {
    "name": "mixed_cg_update",
    "level": 1,
    "category": "blas",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"LX": 4, "LY": 4, "LZ": 4, "LT": 8},
        "ragged": {"LX": 6, "LY": 4, "LZ": 5, "LT": 3},
        "large": {"LX": 32, "LY": 32, "LZ": 32, "LT": 64},
    },
    "baseline_notes": "One launch over blocks of 4096 reals (8 warps): x in fp32, r, p and Ap loaded in fp16 and "
                      "widened in registers, both updates in fp32, r' rounded to fp16 on the store, one fp32 partial "
                      "|r'|^2 per program; a one-program kernel sums the partials in fp64. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x fp32, r, p, Ap in the sloppy dtype (all [V, 4, 3, 2]) and alpha."""
    s = META["sizes"][size]
    v = s["LX"] * s["LY"] * s["LZ"] * s["LT"]
    g = torch.Generator().manual_seed(seed)
    sloppy = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(v, 4, 3, 2, generator=g)
    r = torch.randn(v, 4, 3, 2, generator=g)
    p = r + 0.5 * torch.randn(v, 4, 3, 2, generator=g)
    ap = 1.6 * p + 0.3 * torch.randn(v, 4, 3, 2, generator=g)
    alpha = 0.37
    return (x.to(device), r.to(device=device, dtype=sloppy), p.to(device=device, dtype=sloppy),
            ap.to(device=device, dtype=sloppy), alpha)


def reference(x: torch.Tensor, r: torch.Tensor, p: torch.Tensor, ap: torch.Tensor, alpha: float) -> tuple:
    x_new = x + alpha * p.float()
    r_new = r.float() - alpha * ap.float()
    r2 = r_new.double().pow(2).sum().float()
    return x_new, r_new.to(r.dtype), r2


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = 24 * s["LX"] * s["LY"] * s["LZ"] * s["LT"]
    return {"bytes": n * (4 + 4 + 2 + 2 + 2 + 2), "flops": 6 * n}
