"""Column step of ProxSuite's dense Ruiz equilibration (proxqp::dense::detail::ruiz_scale_qp_in_place).

For a dense QP  min 1/2 x'Hx + g'x  s.t.  Ax = b,  l <= Cx <= u  with n variables, n_eq equality and
n_in inequality rows, every Ruiz iteration first computes the per-variable scaling (Symmetry::general)
    aux_k   = sqrt(max(||H[:, k]||_inf, ||A[:, k]||_inf, ||C[:, k]||_inf))
    delta_k = 1 / (aux_k + eps)      (delta_k = 1 when aux_k == 0)
with eps the machine epsilon of the working precision (fp32 here). H, A and C are row-major torch
tensors, so each column norm is a reduction over the rows of the matrix. Returns delta [n] fp32.
"""
import torch

META = {
    "name": "ruiz_column_scaling",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"n": 24, "n_eq": 6, "n_in": 10},
        "ragged": {"n": 37, "n_eq": 5, "n_in": 13},
        "large": {"n": 4096, "n_eq": 1024, "n_in": 1024},
    },
    "baseline_notes": "min(40, column blocks) programs (the 910B's vector cores) loop over blocks of 64 "
                      "columns; each walks H, then A, then C in [64 rows, 64 columns] tiles whose last axis "
                      "is the contiguous column axis, keeps a running column |max| in a [64] vector "
                      "(reduction over axis 0), then sqrt and 1 / (aux + eps); no autotune.",
    "deterministic": True,
}
EPS32 = float(torch.finfo(torch.float32).eps)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """H [n, n] symmetric, A [n_eq, n], C [n_in, n] (row-major), with badly scaled columns."""
    s = META["sizes"][size]
    n, n_eq, n_in = s["n"], s["n_eq"], s["n_in"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    col_scale = torch.exp(torch.randn(n, generator=g) * 1.5)
    m = torch.randn(n, n, generator=g) * col_scale
    h = 0.5 * (m + m.T)
    a = torch.randn(n_eq, n, generator=g) * col_scale
    c = torch.randn(n_in, n, generator=g) * col_scale
    zero = torch.randint(0, n, (1,), generator=g)   # one variable that appears nowhere: delta = 1
    h[zero, :] = 0.0
    h[:, zero] = 0.0
    a[:, zero] = 0.0
    c[:, zero] = 0.0
    return h.to(dt).to(device), a.to(dt).to(device), c.to(dt).to(device)


def reference(h: torch.Tensor, a: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    cols = [h.double().abs().amax(dim=0)]
    if a.shape[0] > 0:
        cols.append(a.double().abs().amax(dim=0))
    if c.shape[0] > 0:
        cols.append(c.double().abs().amax(dim=0))
    aux = torch.stack(cols).amax(dim=0).sqrt()
    delta = torch.where(aux == 0, torch.ones_like(aux), 1.0 / (aux + EPS32))
    return delta.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["n"]
    rows = n + s["n_eq"] + s["n_in"]
    return {"bytes": 4 * rows * n + 4 * n, "flops": 2 * rows * n}
