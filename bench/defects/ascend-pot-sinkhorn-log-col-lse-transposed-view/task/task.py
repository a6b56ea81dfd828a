"""Column dual update of log-domain Sinkhorn (POT ot.bregman.sinkhorn_log).

POT's sinkhorn_log keeps the scaled dual potentials u [n] and v [m] and alternates
    v = log(b) - logsumexp(Mr + u[:, None], axis=0)
    u = log(a) - logsumexp(Mr + v[None, :], axis=1)
with Mr = -M / reg and M the [n, m] ground-cost matrix (row-major). This task is the first of the two
updates, the reduction over the rows of M for every column:
    v[j] = log_b[j] - log sum_i exp(u[i] - M[i, j] / reg)
Inputs M [n, m] fp32, u [n] fp32, log_b [m] fp32 and reg (float); returns v [m] fp32.
"""
import torch

META = {
    "name": "sinkhorn_log_v_update",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"n": 40, "m": 56},
        "ragged": {"n": 77, "m": 93},
        "large": {"n": 8192, "m": 8192},
    },
    "baseline_notes": "Programs (up to the 910B's 40 vector cores) loop over blocks of 64 columns of M; each "
                      "walks the rows in [128, 64] tiles read along the contiguous column axis and keeps a "
                      "running max and rescaled exp-sum per column (reduction over axis 0), then writes "
                      "log_b - (max + log(sum)); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Squared-Euclidean cost between two 2-D clouds in the unit square, a mid-run potential u, log(b), reg."""
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xs = torch.rand(n, 2, generator=g)
    xt = torch.rand(m, 2, generator=g) * 0.8 + 0.1
    cost = (xs[:, None, :] - xt[None, :, :]).pow(2).sum(-1)
    reg = 0.02
    u = -torch.log(torch.tensor(float(n))) + 3.0 * torch.randn(n, generator=g)
    b = torch.rand(m, generator=g) + 0.5
    log_b = torch.log(b / b.sum())
    return cost.to(dt).to(device), u.to(dt).to(device), log_b.to(dt).to(device), reg


def reference(M: torch.Tensor, u: torch.Tensor, log_b: torch.Tensor, reg: float) -> torch.Tensor:
    z = u.double()[:, None] - M.double() / reg
    return (log_b.double() - torch.logsumexp(z, dim=0)).to(M.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    return {"bytes": 4 * (n * m + n + 2 * m), "flops": 5 * n * m}
