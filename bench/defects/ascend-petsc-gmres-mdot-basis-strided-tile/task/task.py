"""Multi-vector dot product of GMRES classical Gram-Schmidt (PETSc KSPGMRES default orthogonalisation:
VecMDot(w, k + 1, V, hes)).

At Arnoldi step k the new Krylov vector w = A v_k is projected on the k + 1 basis vectors held so far:
    h[j] = sum_i V[j, i] * w[i],   j = 0 .. m - 1   (m = k + 1)
The basis is stored as one array V[m, n], one basis vector per row (each vector contiguous), as a
Krylov-basis buffer of restart + 1 vectors is allocated. The large size is the last step of a
GMRES(30) cycle (m = 30) on a 4M-unknown local problem.
"""
import torch

META = {
    "name": "gmres_cgs_mdot",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 1000, "m": 5},
        "ragged": {"n": 3001, "m": 19},
        "large": {"n": 4194304, "m": 30},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over column blocks of 256 unknowns; each "
                      "step loads the [next_power_of_2(m), 256] tile of V (rows = basis vectors, contiguous "
                      "last axis) and the 256 entries of w, and accumulates the row sums in a [BM] fp32 "
                      "register accumulator; per-program partials [40, BM] are summed by a one-program "
                      "second kernel; no atomics, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """V [m, n] (unit-norm basis rows), w [n]."""
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    v = torch.randn(m, n, generator=g)
    v /= v.norm(dim=1, keepdim=True)
    w = torch.randn(n, generator=g) / n ** 0.5 + 0.5 * v[0] - 0.25 * v[m - 1]
    return v.to(dt).to(device), w.to(dt).to(device)


def reference(v: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (v.double() @ w.double()).to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    return {"bytes": 4 * (m * n + n + m), "flops": 2 * m * n}
