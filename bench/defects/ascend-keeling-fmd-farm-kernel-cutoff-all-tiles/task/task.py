"""Daily infection probability of every farm under the UK foot-and-mouth spatial kernel (Keeling & Rohani, Program 7.6).

The farm-level FMD model of Keeling et al. (2001), as written in Keeling & Rohani's Program 7.6: farm i has
Suscept_i = Sheep_i + 10.5 Cows_i and Transmiss_i = 5.1e-7 Sheep_i + 7.7e-7 Cows_i, and the kernel is a
function of the squared distance d2 (km^2):

    K(d2) = exp(P(log d2)),  P the fitted degree-6 polynomial below,
    K = 0.3093 for d2 < 0.0138 (short-range plateau),  K = 0 for d2 > 60^2 (truncated at 60 km).

Each day every farm i gets the rate lambda_i = Suscept_i * sum_j Transmiss_j K(|x_i - x_j|^2) from the M
infectious farms j, and the infection probability p_i = 1 - exp(-lambda_i) (the caller draws the Bernoulli
and masks farms that are not susceptible). As in Program 7.6 the farms are sorted by the grid cell
(CELL km squares, cell index floor(x / CELL) * NY + floor(y / CELL)) they lie in, and the infectious
list keeps that order.
"""
import math

import torch

# polynomial coefficients, highest power first (MATLAB polyval order)
KERNEL_P = (-9.2123e-5, 9.5628e-4, 3.3966e-3, -3.3687e-2, -1.30519e-1, -0.609262, -3.231772)
PLATEAU_D2, PLATEAU_K = 0.0138, 0.3093
CUTOFF_KM = 60.0

META = {
    "name": "fmd_farm_infection_probability",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 1500, "M": 200, "W": 400.0, "H": 400.0, "foci": 3, "cell": 10.0},
        "ragged": {"N": 1777, "M": 233, "W": 400.0, "H": 400.0, "foci": 3, "cell": 10.0},
        "large": {"N": 188_000, "M": 2048, "W": 600.0, "H": 1000.0, "foci": 10, "cell": 10.0},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 128 farms; for each block they "
                      "walk the infectious list in tiles of 64, skip a tile when the bounding boxes of the "
                      "two tiles are more than 60 km apart (the kernel is exactly 0 there), and otherwise "
                      "evaluate the kernel on the [128, 64] pair tile and reduce along the infectious axis; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, y, suscept [N] (all farms, grid-cell order); xi, yi, transmiss [M] (infectious farms, same order)."""
    s = META["sizes"][size]
    n, m, w, h, cell = s["N"], s["M"], s["W"], s["H"], s["cell"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # farms cluster in farming districts: parents uniform, ~20 farms each within a few km
    parents = torch.rand(max(1, n // 20), 2, generator=g) * torch.tensor([w, h])
    pick = torch.randint(0, parents.shape[0], (n,), generator=g)
    xy = parents[pick] + 3.0 * torch.randn(n, 2, generator=g)
    xy = torch.minimum(torch.clamp(xy, min=0.0), torch.tensor([w, h]) - 1e-3)
    # herd sizes as in Program 7.6: 73% keep cattle, 46% + 27% keep sheep, log-normal sizes
    r = torch.rand(n, generator=g)
    cows = torch.where(r < 0.73, (70.0 * torch.exp(torch.randn(n, generator=g))).clamp(1.0, 5000.0), 0.0)
    sheep = torch.where((r < 0.46) | (r > 0.73),
                        (350.0 * torch.exp(torch.randn(n, generator=g))).clamp(1.0, 30000.0), 0.0)
    suscept = sheep + 10.5 * cows
    transmiss = 5.1e-7 * sheep + 7.7e-7 * cows
    # Program 7.6's grid order
    ny = math.ceil(h / cell)
    key = torch.floor(xy[:, 0] / cell) * ny + torch.floor(xy[:, 1] / cell)
    order = torch.sort(key, stable=True).indices
    xy, suscept, transmiss = xy[order], suscept[order], transmiss[order]
    # the infectious farms lie around a few outbreak foci
    foci = xy[torch.randint(0, n, (s["foci"],), generator=g)]
    dist = torch.cdist(xy, foci).min(dim=1).values
    inf_idx = torch.sort(torch.multinomial(torch.exp(-dist / 15.0), m, replacement=False, generator=g)).values
    out = (xy[:, 0], xy[:, 1], suscept, xy[inf_idx, 0], xy[inf_idx, 1], transmiss[inf_idx])
    return tuple(t.to(dt).contiguous().to(device) for t in out)


def kernel(d2: torch.Tensor) -> torch.Tensor:
    ld = torch.log(d2)
    poly = torch.zeros_like(d2)
    for c in KERNEL_P:
        poly = poly * ld + c
    k = torch.where(d2 < PLATEAU_D2, torch.full_like(d2, PLATEAU_K), torch.exp(poly))
    return torch.where(d2 > CUTOFF_KM * CUTOFF_KM, torch.zeros_like(d2), k)


def reference(x, y, suscept, xi, yi, transmiss) -> torch.Tensor:
    lam = torch.zeros(x.shape[0], dtype=torch.float64, device=x.device)
    for start in range(0, x.shape[0], 4096):
        sl = slice(start, start + 4096)
        d2 = (x[sl, None].double() - xi[None, :].double()) ** 2 + (y[sl, None].double() - yi[None, :].double()) ** 2
        lam[sl] = suscept[sl].double() * (kernel(d2) * transmiss[None, :].double()).sum(1)
    return (-torch.expm1(-lam)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (4 * s["N"] + 3 * s["M"]), "flops": 30 * s["N"] * s["M"]}
