"""Projected Jacobi iterations on the contact dual of a batch of worlds (MuJoCo's dual PGS problem, Jacobi-ordered).

Per world, MuJoCo's dual solver (mj_solPGS) works on the constraint-space problem
    minimise 0.5 * lam' A lam + lam' b   subject to lam >= 0,
with A = J M^-1 J' + R (J the constraint Jacobian of the pyramidal friction cones: 4 edge rows
n +- mu t1, n +- mu t2 per contact, so every dual variable is non-negative; R the diagonal
regulariser from the solver impedance) and b = J a_smooth - a_ref. Solved for a whole batch of
worlds at once, the sweep is Jacobi-ordered (every row updated from the previous iterate), with a
relaxation factor omega that keeps the projected iteration stable:
    lam <- max(0, lam - omega * (A lam + b) / diag(A))     repeated `iterations` times
starting from the warm start lam0. Returns lam [W, nefc] fp32.
"""
import torch

META = {
    "name": "dual_jacobi_contact_solve",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"worlds": 3, "contacts": 6, "nv": 12, "iterations": 20},
        "ragged": {"worlds": 5, "contacts": 7, "nv": 18, "iterations": 15},
        "large": {"worlds": 4096, "contacts": 16, "nv": 24, "iterations": 100},
    },
    "baseline_notes": "One program per world: the world's [nefc, nefc] A (padded to a power of two), "
                      "diag(A), b and lam are loaded once and kept in registers, and the program runs all "
                      "the iterations in a loop (row dot products A lam as a broadcast multiply and a row "
                      "sum, projection onto lam >= 0), storing lam once at the end. 4 warps, no autotune.",
    "deterministic": True,
}
MU = 1.0            # MuJoCo's default sliding friction
IMPEDANCE = 0.9     # solimp d at the contact's depth: R_ii = (1 - d) / d * A_ii


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [W, nefc, nefc], b [W, nefc], warm start lam0 [W, nefc], iterations (int), omega (float)."""
    s = META["sizes"][size]
    w, ncon, nv = s["worlds"], s["contacts"], s["nv"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    chol = torch.randn(w, nv, nv, generator=g, dtype=torch.float64) * 0.3 + 1.5 * torch.eye(nv, dtype=torch.float64)
    m_inv = torch.linalg.inv(chol @ chol.transpose(1, 2))
    jn = torch.randn(w, ncon, nv, generator=g, dtype=torch.float64)
    jt1 = torch.randn(w, ncon, nv, generator=g, dtype=torch.float64)
    jt2 = torch.randn(w, ncon, nv, generator=g, dtype=torch.float64)
    jac = torch.stack([jn + MU * jt1, jn - MU * jt1, jn + MU * jt2, jn - MU * jt2], dim=2).reshape(w, 4 * ncon, nv)
    a0 = jac @ m_inv @ jac.transpose(1, 2)
    diag0 = torch.diagonal(a0, dim1=1, dim2=2)
    a = a0 + torch.diag_embed(diag0 * (1.0 - IMPEDANCE) / IMPEDANCE)
    a_smooth = torch.randn(w, nv, 1, generator=g, dtype=torch.float64) * 2.0
    a_ref = -(0.5 + torch.rand(w, 4 * ncon, generator=g, dtype=torch.float64)) * 4.0
    b = (jac @ a_smooth).squeeze(-1) - a_ref
    lam0 = torch.clamp(torch.randn(w, 4 * ncon, generator=g, dtype=torch.float64), min=0.0) * 0.5
    d = torch.diagonal(a, dim1=1, dim2=2).rsqrt()
    lam_max = torch.linalg.eigvalsh(d[:, :, None] * a * d[:, None, :]).max().item()
    omega = 1.0 / lam_max
    return (a.to(device=device, dtype=dt), b.to(device=device, dtype=dt), lam0.to(device=device, dtype=dt),
            s["iterations"], omega)


def reference(a: torch.Tensor, b: torch.Tensor, lam0: torch.Tensor, iterations: int, omega: float) -> torch.Tensor:
    a64, b64, lam = a.double(), b.double(), lam0.double()
    diag = torch.diagonal(a64, dim1=1, dim2=2)
    for _ in range(iterations):
        res = (a64 @ lam.unsqueeze(-1)).squeeze(-1) + b64
        lam = torch.clamp(lam - omega * res / diag, min=0.0)
    return lam.to(lam0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    w, n = s["worlds"], 4 * s["contacts"]
    return {"bytes": 4 * w * n * n + 12 * w * n, "flops": 2 * w * n * n * s["iterations"]}
