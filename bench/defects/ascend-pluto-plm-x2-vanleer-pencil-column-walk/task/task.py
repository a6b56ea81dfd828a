"""Piecewise-linear (PLM) reconstruction along x2 with the van Leer limiter (PLUTO plm_states, x2 sweep).

The primitive variables V[nv][k][j][i] (nv = rho, vx1, vx2, vx3, prs; i fastest, PLUTO's d->Vc layout)
carry one ghost zone on each side in x2. For every interior cell j of every (nv, k, i) the one-sided
differences along x2 are dp = V[j+1] - V[j], dm = V[j] - V[j-1]; PLUTO's VanLeerLim gives the limited
slope dv = 2 dp dm / (dp + dm) where dp dm > 0, else 0, and the face states of the cell are
    vm = V[j] - dv / 2   (at the j-1/2 face, the right state of that interface)
    vp = V[j] + dv / 2   (at the j+1/2 face, the left state of that interface)
on a uniform Cartesian grid. Returns (vm, vp), each [5, K, J, I].
"""
import torch

META = {
    "name": "plm_vanleer_x2",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"K": 2, "J": 6, "I": 8},
        "ragged": {"K": 3, "J": 5, "I": 7},
        "large": {"K": 256, "J": 256, "I": 256},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (variable, k, block of 8 x2 rows) units; each "
                      "unit loads three [8, I] tiles (rows j-1, j, j+1) contiguous along i, applies the van Leer "
                      "limiter elementwise and stores the two [8, I] face-state tiles; no autotune.",
    "deterministic": True,
}
NVAR = 5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """V [5, K, J + 2, I]: a smooth flow with a few shocks and noise (rho, prs > 0)."""
    s = META["sizes"][size]
    K, J, I = s["K"], s["J"], s["I"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, J + 2)[None, :, None]
    x = torch.linspace(0.0, 1.0, I)[None, None, :]
    z = torch.linspace(0.0, 1.0, K)[:, None, None]
    wave = torch.sin(6.283 * (y + 0.3 * x + 0.2 * z))
    jump = (y > 0.5 + 0.1 * torch.sin(6.283 * x)).float()
    v = torch.empty(NVAR, K, J + 2, I)
    v[0] = 1.0 + 0.3 * wave + 2.0 * jump
    v[1] = 0.5 * torch.cos(6.283 * (x + z)) + 0.0 * y
    v[2] = 0.8 * wave - 0.5 * jump
    v[3] = 0.2 * torch.sin(6.283 * (x - y))
    v[4] = 0.6 + 0.2 * wave + 1.5 * jump
    v += 0.05 * torch.randn(v.shape, generator=g)
    v[0].clamp_(min=0.05)
    v[4].clamp_(min=0.05)
    return (v.to(dt).to(device),)


def reference(v: torch.Tensor) -> tuple:
    w = v.double()
    c = w[:, :, 1:-1, :]
    dp = w[:, :, 2:, :] - c
    dm = c - w[:, :, :-2, :]
    prod = dp * dm
    dv = torch.where(prod > 0.0, 2.0 * prod / torch.where(prod > 0.0, dp + dm, 1.0), 0.0)
    return (c - 0.5 * dv).to(v.dtype), (c + 0.5 * dv).to(v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = NVAR * s["K"] * s["J"] * s["I"]
    return {"bytes": 4 * NVAR * s["K"] * (s["J"] + 2) * s["I"] + 8 * cells, "flops": 9 * cells}
