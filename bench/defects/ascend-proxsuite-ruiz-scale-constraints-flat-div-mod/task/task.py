"""Scaling step of ProxSuite's dense Ruiz equilibration (ruiz_scale_qp_in_place, "normalize A and C").

After an iteration has computed the Ruiz vector delta = [delta_x (n); delta_eq (n_eq); delta_in (n_in)],
the constraint matrices are rescaled on both sides,
    A <- diag(delta_eq) A diag(delta_x),   C <- diag(delta_in) C diag(delta_x),
which for the stacked constraint matrix M = [A; C] (m = n_eq + n_in rows, row-major) is
    out[i, j] = delta[n + i] * M[i, j] * delta[j].
Returns the scaled matrix [m, n] (same dtype as M); M and delta are left unchanged.
"""
import torch

META = {
    "name": "ruiz_scale_constraints",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"n": 24, "m": 20},
        "ragged": {"n": 37, "m": 29},
        "large": {"n": 4096, "m": 8192},
    },
    "baseline_notes": "min(40, row blocks) programs (the 910B's vector cores) take blocks of 16 rows "
                      "round-robin, load the 16 row scales once and walk the columns in [16, 256] tiles "
                      "(contiguous last axis), multiplying by the row and column scale vectors; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """M [m, n] stacked [A; C] with badly scaled rows and columns, delta [n + m] positive Ruiz factors."""
    s = META["sizes"][size]
    n, m = s["n"], s["m"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    row_scale = torch.exp(torch.randn(m, 1, generator=g))
    col_scale = torch.exp(torch.randn(1, n, generator=g))
    mat = torch.randn(m, n, generator=g) * row_scale * col_scale
    delta = torch.exp(-0.5 * torch.randn(n + m, generator=g))
    return mat.to(dt).to(device), delta.to(dt).to(device)


def reference(mat: torch.Tensor, delta: torch.Tensor) -> torch.Tensor:
    m, n = mat.shape
    d = delta.double()
    return (d[n:n + m, None] * mat.double() * d[None, :n]).to(mat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["m"] * s["n"] + 4 * (s["n"] + s["m"]), "flops": 2 * s["m"] * s["n"]}
