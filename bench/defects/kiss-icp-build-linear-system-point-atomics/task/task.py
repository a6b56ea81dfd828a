"""Gauss-Newton normal equations of one KISS-ICP registration step (point-to-point, robust kernel).

KISS-ICP (Vizzo et al., RA-L 2023), `BuildLinearSystem` in `Registration.cpp`: for every correspondence
(source point s_i already moved by the current pose estimate, target t_i its nearest map point) the
residual is r_i = s_i - t_i, the 3x6 Jacobian of the left SE(3) perturbation is J_i = [ I | -[s_i]x ],
and the Geman-McClure weight is w_i = kappa^2 / (kappa + |r_i|^2)^2. The step solves
JTJ dx = -JTr with

    JTJ = sum_i J_i^T w_i J_i   (6x6)        JTr = sum_i J_i^T w_i r_i   (6)

Returns (JTJ [6, 6] float64, JTr [6] float64): KISS-ICP keeps the system in double and solves it
on the host with an LDLT.
"""
import math

import torch

META = {
    "name": "icp_point_to_point_normal_equations",
    "level": 2,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"rings": 4, "cols": 50},
        "ragged": {"rings": 7, "cols": 47},
        "large": {"rings": 128, "cols": 2048},
    },
    "baseline_notes": "1-D grid over chunks of 1024 correspondences; each program walks its chunk in tiles of "
                      "64 points, builds the three Jacobian rows as [64, 8] tiles, forms w * J^T J as a "
                      "[64, 8, 8] tile and w * J^T r as [64, 8], sums them over the points into an [8, 8] "
                      "and an [8] register accumulator, and adds those into the float64 JTJ / JTr with one "
                      "36-lane and one 6-lane atomic per program. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One spinning-LiDAR scan (rings x cols beams, Ouster OS1-128 geometry at full size) with its matches.

    Returns source [N, 3], target [N, 3] (float) and the kernel scale kappa (float, metres): KISS-ICP
    uses a third of its adaptive threshold sigma.
    """
    s = META["sizes"][size]
    rings, cols = s["rings"], s["cols"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    elev = torch.linspace(-22.5, 22.5, rings).mul(math.pi / 180.0)[:, None].expand(rings, cols)
    azim = torch.linspace(0.0, 2.0 * math.pi, cols + 1)[:-1][None, :].expand(rings, cols)
    # a street-like scene: walls 6-12 m away, ground below, some far structure
    rng = 6.0 + 6.0 * torch.rand(rings, cols, generator=g) + 40.0 * (torch.rand(rings, cols, generator=g) > 0.8)
    ground = 1.8 / torch.clamp(-torch.sin(elev), min=1e-3)
    rng = torch.where(elev < -0.05, torch.minimum(rng, ground), rng)
    src = torch.stack([rng * torch.cos(elev) * torch.cos(azim),
                       rng * torch.cos(elev) * torch.sin(azim),
                       rng * torch.sin(elev)], dim=-1).reshape(-1, 3)
    n = src.shape[0]
    noise = 0.05 * torch.randn(n, 3, generator=g)
    outlier = torch.rand(n, 1, generator=g) < 0.1
    noise = torch.where(outlier, 0.8 * torch.randn(n, 3, generator=g), noise)
    tgt = src + noise
    kappa = 0.5
    return src.to(device=device, dtype=dt), tgt.to(device=device, dtype=dt), kappa


def reference(source: torch.Tensor, target: torch.Tensor, kappa: float) -> tuple:
    s, t = source.double(), target.double()
    r = s - t
    w = kappa * kappa / (kappa + (r * r).sum(-1)) ** 2
    n = s.shape[0]
    J = torch.zeros(n, 3, 6, dtype=torch.float64, device=s.device)
    J[:, 0, 0] = J[:, 1, 1] = J[:, 2, 2] = 1.0
    x, y, z = s.unbind(-1)
    # -[s]x
    J[:, 0, 4], J[:, 0, 5] = z, -y
    J[:, 1, 3], J[:, 1, 5] = -z, x
    J[:, 2, 3], J[:, 2, 4] = y, -x
    jtj = torch.einsum("n,nci,ncj->ij", w, J, J)
    jtr = torch.einsum("n,nci,nc->i", w, J, r)
    return jtj, jtr


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["rings"] * s["cols"]
    return {"bytes": 24 * n + 8 * 42, "flops": 150 * n}
