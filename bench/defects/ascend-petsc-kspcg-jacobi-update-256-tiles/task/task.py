"""Vector phase of one preconditioned CG iteration (PETSc KSPSolve_CG with PCJACOBI), fused in one pass.

After the matrix-vector product w = A p and the step length alpha = (r, z) / (p, w) of an iteration,
PETSc's KSPSolve_CG (src/ksp/ksp/impls/cg/cg.c) does

    VecAXPY(x,  alpha, p)          x <- x + alpha p
    VecAXPY(r, -alpha, w)          r <- r - alpha w
    PCApply (Jacobi)               z <- diag(A)^-1 r           (VecPointwiseMult with the inverse diagonal)
    VecDot(z, r), VecNorm(r)       beta = (r, z) for the next direction, ||r||^2 for the convergence test

This task does those four steps in one pass over the vectors: inputs x, r, p, w, inverse diagonal d and
alpha (a 1-element device tensor, so no host round trip), outputs the new x, r, z and the two dot
products [(r, z), (r, r)] in fp32. The inputs are not modified.
"""
import torch

META = {
    "name": "cg_jacobi_vector_update",
    "level": 1,
    "category": "sparse-solver",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 5000},
        "ragged": {"n": 12345},
        "large": {"n": 16777216},
    },
    "baseline_notes": "min(40, blocks) programs (the A2's vector cores) stride over blocks of 2048 elements: "
                      "five contiguous loads, three contiguous stores and two vector accumulators (r*z, r*r) "
                      "per block; each program reduces its accumulators once at the end and adds them to "
                      "the 2-element result with one atomic each (40 x 2 atomics). No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, r, p, w (= A p), dinv (inverse diagonal of a 3-D 7-point Laplacian-like operator) [n], alpha [1]."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(n, generator=g)
    r = torch.randn(n, generator=g) * 1e-2
    p = torch.randn(n, generator=g) * 1e-2
    w = torch.randn(n, generator=g) * 6e-2
    dinv = 1.0 / (6.0 + 2.0 * torch.rand(n, generator=g))
    alpha = torch.tensor([0.137])
    return tuple(t.to(device=device, dtype=dt) for t in (x, r, p, w, dinv, alpha))


def reference(x, r, p, w, dinv, alpha) -> tuple:
    a = alpha.double()[0]
    xn = x.double() + a * p.double()
    rn = r.double() - a * w.double()
    z = dinv.double() * rn
    dots = torch.stack([(rn * z).sum(), (rn * rn).sum()])
    return xn.to(x.dtype), rn.to(x.dtype), z.to(x.dtype), dots.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 4 * n * (5 + 3), "flops": 10 * n}
