"""One Jacobi sweep of the eikonal solver behind Vadere's static floor field (target potential).

Vadere's floor field is the arrival time T(x) of the eikonal equation |grad T| F = 1 on a Cartesian
cell grid (cell size h, 0.1 m by default): T = 0 on target cells, F the walking-speed field (1 in free
space, lower on slow terrain, 0 inside obstacles). Iterative solvers (the fast iterative method and
its Jacobi form) update every cell from its four neighbours with the first-order upwind (Godunov)
local solver and repeat until nothing changes. One sweep, with f = h / F (inf inside obstacles):

    a = min(T[r, c-1], T[r, c+1]),  b = min(T[r-1, c], T[r+1, c])   (outside the grid: BIG)
    t = min(a, b) + f                               if |a - b| >= f
    t = (a + b + sqrt(2 f^2 - (a - b)^2)) / 2       otherwise
    T_new[r, c] = min(T[r, c], t)

Unknown cells and obstacle cells carry BIG = 1e18 (finite, so a - b never becomes inf - inf).
Returns T_new [H, W] fp32.
"""
import math

import torch

BIG = 1.0e18

META = {
    "name": "eikonal_jacobi_sweep",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 20, "W": 36},
        "ragged": {"H": 37, "W": 53},
        "large": {"H": 2048, "W": 4096},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over [4, 512] tiles of the grid; per tile "
                      "the centre, the four shifted neighbour tiles (bounds masks, other=BIG) and the speed "
                      "are loaded, the Godunov update is computed with tl.where, one store; no autotune.",
    "deterministic": True,
}
CELL = 0.1  # metres, Vadere's default potential-field resolution


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Arrival times T [H, W] part-way through the iteration, speed F [H, W] (0 in obstacles), cell size h."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    speed = 1.0 - 0.3 * torch.rand(H, W, generator=g)
    obstacle = torch.zeros(H, W, dtype=torch.bool)
    for _ in range(max(2, H * W // 40000)):
        h0 = int(torch.randint(0, H, (1,), generator=g))
        w0 = int(torch.randint(0, W, (1,), generator=g))
        dh = int(torch.randint(1, max(2, H // 10), (1,), generator=g))
        dw = int(torch.randint(1, max(2, W // 10), (1,), generator=g))
        obstacle[h0:h0 + dh, w0:w0 + dw] = True
    speed[obstacle] = 0.0
    # exits on the walls; cells within a radius of them already carry (noisy) arrival times
    rr = torch.arange(H, dtype=torch.float64)[:, None]
    cc = torch.arange(W, dtype=torch.float64)[None, :]
    exits = [(0, W // 3), (H - 1, (2 * W) // 3), (H // 2, 0), (H // 4, W - 1)]
    dist = torch.full((H, W), math.inf, dtype=torch.float64)
    for er, ec in exits:
        dist = torch.minimum(dist, torch.sqrt((rr - er) ** 2 + (cc - ec) ** 2) * CELL)
    known = dist < 0.3 * min(H, W) * CELL
    noise = 1.0 + 0.15 * torch.rand(H, W, generator=g, dtype=torch.float64)
    T = torch.where(known, dist / 0.85 * noise, torch.full_like(dist, BIG))
    for er, ec in exits:
        T[er, ec] = 0.0
        speed[er, ec] = 1.0
        obstacle[er, ec] = False
    T[obstacle] = BIG
    return T.to(dt).to(device), speed.to(dt).to(device), CELL


def reference(T: torch.Tensor, speed: torch.Tensor, h: float) -> torch.Tensor:
    t = T.double()
    pad = torch.nn.functional.pad(t, (1, 1, 1, 1), value=BIG)
    n, s = pad[:-2, 1:-1], pad[2:, 1:-1]
    w, e = pad[1:-1, :-2], pad[1:-1, 2:]
    f = h / speed.double()
    a = torch.minimum(w, e)
    b = torch.minimum(n, s)
    d = a - b
    one = torch.minimum(a, b) + f
    two = 0.5 * (a + b + torch.sqrt(2.0 * f * f - d * d))
    cand = torch.where(d.abs() >= f, one, two)
    return torch.minimum(t, cand).to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["H"] * s["W"]
    return {"bytes": 12 * cells, "flops": 16 * cells}
