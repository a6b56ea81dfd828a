"""Agent-agent forces of the social force model (Helbing, Farkas & Vicsek 2000, JuPedSim SocialForceModel).

For every agent i, the sum over agents j != i closer than the neighbourhood cut-off (3 m) of
    n = (x_i - x_j) / d,  t = (-n_y, n_x),  gap = r_i + r_j - d,  g = max(gap, 0)
    f_ij = (A exp(gap / B) + k g) n + kappa g ((v_j - v_i) . t) t
with A = 2000 N, B = 0.08 m, k = 1.2e5 kg/s^2, kappa = 2.4e5 kg/(m s) (the paper's values);
distinct agents never share a position, so d > 0 identifies j != i.
Agents come sorted by the cell of the neighbourhood grid the simulator maintains (square cells of
the cut-off size, cell id = cy * ncx + cx), with cell_of [N] (each agent's cell) and
cell_start [n_cells + 1] (first agent of each cell, CSR-style), as a linked-cell list provides them.
Returns (fx [N], fy [N]) fp32 in newtons.
"""
import math

import torch

A_FORCE = 2000.0
B_RANGE = 0.08
K_BODY = 1.2e5
KAPPA = 2.4e5
CUTOFF = 3.0

META = {
    "name": "social_force_agent_forces",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 96, "X": 24.0, "Y": 12.0},
        "ragged": {"N": 150, "X": 30.0, "Y": 15.0},
        "large": {"N": 16384, "X": 200.0, "Y": 100.0},
    },
    "baseline_notes": "40 programs loop over blocks of 16 agents; each block reads the cell range of its first "
                      "and last agent, widens it by one cell row and one cell on either side, and walks only "
                      "the 128-agent partner tiles between cell_start of those bounds; per [16, 128] tile the "
                      "pair forces are masked by the cut-off and i != j and summed along the partner axis; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, y, vx, vy, radius [N]; cell_of [N] int32; cell_start [n_cells + 1] int32; ncx; cut-off and A, B, k, kappa."""
    s = META["sizes"][size]
    n, X, Y = s["N"], s["X"], s["Y"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # jittered lattice (no coincident agents), N of its sites occupied
    spacing = math.sqrt(X * Y / n)
    nx, ny = math.ceil(X / spacing), math.ceil(Y / spacing)
    while nx * ny < n:
        nx += 1
    sx, sy = X / nx, Y / ny
    site = torch.randperm(nx * ny, generator=g)[:n]
    x = ((site % nx).double() + 0.5 + 0.6 * (torch.rand(n, generator=g, dtype=torch.float64) - 0.5)) * sx
    y = ((site // nx).double() + 0.5 + 0.6 * (torch.rand(n, generator=g, dtype=torch.float64) - 0.5)) * sy
    vx = 1.2 + 0.3 * torch.randn(n, generator=g, dtype=torch.float64)
    vy = 0.3 * torch.randn(n, generator=g, dtype=torch.float64)
    radius = 0.25 + 0.05 * torch.rand(n, generator=g, dtype=torch.float64)
    ncx, ncy = math.ceil(X / CUTOFF), math.ceil(Y / CUTOFF)
    cx = torch.clamp((x / CUTOFF).floor().long(), 0, ncx - 1)
    cy = torch.clamp((y / CUTOFF).floor().long(), 0, ncy - 1)
    cell = cy * ncx + cx
    order = torch.argsort(cell * (nx * ny) + site, stable=True)
    cell = cell[order]
    counts = torch.bincount(cell, minlength=ncx * ncy)
    cell_start = torch.zeros(ncx * ncy + 1, dtype=torch.long)
    cell_start[1:] = torch.cumsum(counts, 0)
    f = lambda t: t[order].to(dt).to(device)  # noqa: E731
    return (f(x), f(y), f(vx), f(vy), f(radius), cell.to(torch.int32).to(device),
            cell_start.to(torch.int32).to(device), ncx, CUTOFF, A_FORCE, B_RANGE, K_BODY, KAPPA)


def reference(x, y, vx, vy, radius, cell_of, cell_start, ncx, cutoff, A, B, k, kappa) -> tuple:
    X, Y, VX, VY, R = (t.double() for t in (x, y, vx, vy, radius))
    n = X.shape[0]
    fx = torch.zeros(n, dtype=torch.float64, device=X.device)
    fy = torch.zeros(n, dtype=torch.float64, device=X.device)
    idx = torch.arange(n, device=X.device)
    for s in range(0, n, 256):
        i = idx[s:s + 256]
        # candidates: every agent inside this chunk's bounding box grown by the cut-off
        box = ((X >= X[i].min() - cutoff) & (X <= X[i].max() + cutoff)
               & (Y >= Y[i].min() - cutoff) & (Y <= Y[i].max() + cutoff))
        j = idx[box]
        dx = X[i, None] - X[None, j]
        dy = Y[i, None] - Y[None, j]
        d = torch.sqrt(dx * dx + dy * dy)
        near = (d < cutoff) & (i[:, None] != j[None, :])
        ds = torch.where(near, d, torch.ones_like(d))
        nx, ny = dx / ds, dy / ds
        gap = R[i, None] + R[None, j] - d
        g = gap.clamp(min=0.0)
        push = A * torch.exp(gap / B) + k * g
        dvt = (VX[None, j] - VX[i, None]) * (-ny) + (VY[None, j] - VY[i, None]) * nx
        fric = kappa * g * dvt
        zero = torch.zeros_like(d)
        fx[i] = torch.where(near, push * nx - fric * ny, zero).sum(1)
        fy[i] = torch.where(near, push * ny + fric * nx, zero).sum(1)
    return fx.to(x.dtype), fy.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, X, Y = s["N"], s["X"], s["Y"]
    neighbours = n * math.pi * CUTOFF ** 2 / (X * Y)
    return {"bytes": 28 * n, "flops": int(40 * n * neighbours)}
