"""Classical Gram-Schmidt projections of one GMRES Arnoldi step: h = V[:k] @ w (PETSc VecMDot), float64.

V is the Krylov basis storage of a restarted GMRES(m) solve, m + 1 rows of length N of which the first k are the
orthonormal vectors built so far; w = A v_(k-1) is the new Krylov direction. The projections h[j] = <v_j, w> are
what classical Gram-Schmidt subtracts next (VecMAXPY) and what becomes column k-1 of the Hessenberg matrix.
"""
import torch

META = {
    "name": "gmres_cgs_mdot",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-10, "rtol": 1e-9}},
    "sizes": {
        "small": {"N": 6000, "K": 5, "M": 8},
        "ragged": {"N": 9973, "K": 11, "M": 16},
        "large": {"N": 2097152, "K": 30, "M": 31},
    },
    "baseline_notes": "Split reduction: a (k, splits) grid where each program reduces one 8,192-element chunk of one "
                      "basis vector against w into a partial, then a k-program kernel sums each vector's partials; "
                      "4 warps, 1,024-element blocks.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """V [M, N] (first K rows orthonormal, the rest stale storage), w [N], and K."""
    s = META["sizes"][size]
    n, k, m = s["N"], s["K"], s["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    basis = torch.randn(n, k, generator=g, dtype=torch.float64).to(device)
    q, _ = torch.linalg.qr(basis)
    stale = torch.randn(m - k, n, generator=g, dtype=torch.float64).to(device)
    v = torch.cat([q.t(), stale], dim=0).to(dt).contiguous()
    coeff = torch.randn(k, generator=g, dtype=torch.float64).to(device)
    w = (torch.randn(n, generator=g, dtype=torch.float64).to(device) / n ** 0.5 + coeff @ q.t()).to(dt)
    return v, w, k


def reference(v: torch.Tensor, w: torch.Tensor, k: int) -> torch.Tensor:
    return (v[:k].double() @ w.double()).to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * (s["K"] * s["N"] + s["N"] + s["K"]), "flops": 2 * s["K"] * s["N"]}
