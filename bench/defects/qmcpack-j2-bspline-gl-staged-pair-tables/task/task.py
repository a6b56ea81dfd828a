"""Two-body Jastrow gradient and Laplacian of a batch of walkers (QMCPACK TwoBodyJastrow::mw_evaluateGL).

Each walker w holds N electrons (the first n_up spin up, the rest spin down) in a periodic cubic cell of side
L, positions stored structure-of-arrays as QMCPACK's RSoA, R[w, c, i]. The Jastrow factor is
J = exp(-U), U = sum_{i<j} u_{s_i s_j}(r_ij), with the minimum-image distance r_ij and a cubic B-spline
functor per spin pair (QMCPACK's BsplineFunctor: M uniform intervals on [0, rcut], M + 3 coefficients;
row 0 of coefs is the same-spin functor uu/dd, row 1 the opposite-spin ud; the last three coefficients
are zero so u, u' and u'' vanish at the cutoff). For every electron i:
    grad_i log J = -sum_{j != i, r_ij < rcut} u'(r_ij) (r_i - r_j) / r_ij
    lap_i  log J = -sum_{j != i, r_ij < rcut} (u''(r_ij) + 2 u'(r_ij) / r_ij)
and log J = -U per walker. Returns (logJ [W], grad [W, 3, N], lap [W, N]), all fp32.
"""
import math

import torch

META = {
    "name": "j2_bspline_gl",
    "level": 2,
    "category": "pair-interaction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"W": 2, "N": 16, "M": 8},
        "ragged": {"W": 3, "N": 13, "M": 8},
        "large": {"W": 256, "N": 512, "M": 8},
    },
    "baseline_notes": "Grid (N / 32 electron blocks, W walkers); each program loops over 32-electron column "
                      "tiles, forms the minimum-image displacements and distances of its 32x32 pair tile in "
                      "registers, evaluates the spin-pair B-spline functor (4 coefficient loads from an "
                      "L1-resident table) and accumulates grad, lap and the u partial sum per row; a one-program-"
                      "per-walker kernel turns the partial sums into log J. 4 warps, no autotune.",
    "deterministic": True,
}
RS = 1.3          # Wigner-Seitz radius of the valence electron gas (bohr)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """R [W, 3, N] (RSoA positions in [0, L)), box side L, coefs [2, M + 3], rcut = L / 2, n_up."""
    s = META["sizes"][size]
    w, n, m = s["W"], s["N"], s["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    box = (n * 4.0 / 3.0 * math.pi * RS ** 3) ** (1.0 / 3.0)
    rcut = 0.5 * box
    R = torch.rand(w, 3, n, generator=g, dtype=torch.float64) * box
    delta = rcut / m
    k = torch.arange(m + 3, dtype=torch.float64)
    coefs = torch.zeros(2, m + 3, dtype=torch.float64)
    for f, (amp, cusp) in enumerate(((0.45, -0.25), (0.8, -0.5))):
        shape = amp * (1.0 - (k - 1.0) / (m - 1.0)).clamp(min=0.0) ** 3
        shape = shape * (1.0 + 0.05 * torch.randn(m + 3, generator=g, dtype=torch.float64))
        shape[m:] = 0.0
        shape[0] = shape[2] - 2.0 * delta * cusp      # u'(0) = cusp
        coefs[f] = shape
    return R.to(dt).to(device), box, coefs.to(dt).to(device), rcut, (n + 1) // 2


def reference(R: torch.Tensor, box: float, coefs: torch.Tensor, rcut: float, n_up: int) -> tuple:
    w, _, n = R.shape
    nc = coefs.shape[1]
    m = nc - 3
    dr_inv = m / rcut
    x = R.double()
    c = coefs.double().reshape(-1)
    idx = torch.arange(n, device=R.device)
    spin = (idx >= n_up).long()
    fun = (spin[:, None] != spin[None, :]).long()
    not_self = idx[:, None] != idx[None, :]
    logj, grad, lap = [], [], []
    for start in range(0, w, 16):
        xb = x[start:start + 16]
        d = xb[:, :, :, None] - xb[:, :, None, :]                 # [w, 3, i, j] = r_i - r_j
        d = d - box * torch.floor(d / box + 0.5)
        r = d.pow(2).sum(1).sqrt()
        pair = (r < rcut) & not_self
        tt = r * dr_inv
        knot = torch.floor(tt).clamp(max=m - 1)
        t = tt - knot
        base = fun * nc + knot.long()
        c0, c1, c2, c3 = (c[base + q] for q in range(4))
        s = 1.0 - t
        u = (c0 * s ** 3 + c1 * (3 * t ** 3 - 6 * t ** 2 + 4) + c2 * (-3 * t ** 3 + 3 * t ** 2 + 3 * t + 1)
             + c3 * t ** 3) / 6.0
        du = (-0.5 * c0 * s ** 2 + c1 * (1.5 * t ** 2 - 2 * t) + c2 * (-1.5 * t ** 2 + t + 0.5)
              + 0.5 * c3 * t ** 2) * dr_inv
        d2u = (c0 * s + c1 * (3 * t - 2) + c2 * (1 - 3 * t) + c3 * t) * dr_inv ** 2
        zero = torch.zeros_like(r)
        u = torch.where(pair, u, zero)
        du_r = torch.where(pair, du / torch.where(pair, r, torch.ones_like(r)), zero)
        d2u = torch.where(pair, d2u, zero)
        logj.append(-0.5 * u.sum((1, 2)))
        grad.append(-(du_r[:, None] * d).sum(-1))
        lap.append(-(d2u + 2.0 * du_r).sum(-1))
    dt = R.dtype
    return torch.cat(logj).to(dt), torch.cat(grad).to(dt), torch.cat(lap).to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    w, n = s["W"], s["N"]
    return {"bytes": 4 * w * n * 8, "flops": 70 * w * n * n}
