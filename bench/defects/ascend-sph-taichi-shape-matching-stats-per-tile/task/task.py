"""Shape-matching rigid-body projection of SPH_Taichi (erizmr/SPH_Taichi, ShapeMatchingRigidSolver.solve_constraints).

Each rigid body b is a set of P particles with mass m_i (V0 * density), rest offsets q_i = x0_i - c0 (from the
body's rest centre of mass) and predicted positions x_i. The solver, after Mueller et al. 2005, computes
    c   = sum_i m_i x_i / sum_i m_i                         (current centre of mass)
    A   = sum_i m_i (x_i - c) q_i^T                          (3 x 3 moment matrix A_pq)
    R   = rotation factor of the polar decomposition A = R S (ti.polar_decompose)
and moves every particle to its goal position  g_i = c + R q_i.
Bodies are stored body-major and component-planar: x, q [NB, 3, P], m [NB, P]. Returns g [NB, 3, P] fp32.
"""
import torch

META = {
    "name": "shape_matching_rigid_goals",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NB": 3, "P": 1100},
        "ragged": {"NB": 5, "P": 1333},
        "large": {"NB": 1024, "P": 4096},
    },
    "baseline_notes": "min(40, NB) programs (the 910B4's vector cores) loop over bodies; per body two passes in "
                      "512-particle chunks (centre of mass, then the nine sums of A_pq), a scaled Newton polar "
                      "iteration (8 steps, X <- (X + X^-T) / 2) on the 3 x 3 in scalars, then one pass writing "
                      "c + R q for the body's particles. No atomics, no autotune.",
    "deterministic": True,
}


def _random_rotations(n: int, g: torch.Generator) -> torch.Tensor:
    quat = torch.randn(n, 4, generator=g, dtype=torch.float64)
    w, x, y, z = (quat / quat.norm(dim=1, keepdim=True)).unbind(1)
    return torch.stack([
        torch.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        torch.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        torch.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], 1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [NB, 3, P] predicted positions, q [NB, 3, P] rest offsets, m [NB, P] particle masses."""
    s = META["sizes"][size]
    nb, p = s["NB"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    half = 0.05 + 0.1 * torch.rand(nb, 3, 1, generator=g, dtype=torch.float64)   # box-shaped bodies
    rest = (torch.rand(nb, 3, p, generator=g, dtype=torch.float64) * 2 - 1) * half
    m = 1000.0 * 8e-6 * (1.0 + 0.2 * torch.rand(nb, p, generator=g, dtype=torch.float64))
    c0 = (rest * m[:, None]).sum(-1, keepdim=True) / m.sum(-1)[:, None, None]
    q = rest - c0
    rot = _random_rotations(nb, g)
    strain = 0.04 * (torch.rand(nb, 3, 3, generator=g, dtype=torch.float64) - 0.5)
    deform = torch.eye(3, dtype=torch.float64) + 0.5 * (strain + strain.transpose(1, 2))
    centre = torch.rand(nb, 3, 1, generator=g, dtype=torch.float64) * 2.0
    x = centre + rot @ deform @ q + 1e-3 * torch.randn(nb, 3, p, generator=g, dtype=torch.float64)
    return (x.to(device=device, dtype=dt).contiguous(), q.to(device=device, dtype=dt).contiguous(),
            m.to(device=device, dtype=dt).contiguous())


def reference(x: torch.Tensor, q: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    xd, qd, md = x.double(), q.double(), m.double()
    c = (xd * md[:, None]).sum(-1, keepdim=True) / md.sum(-1)[:, None, None]
    a = torch.einsum("bip,bjp->bij", (xd - c) * md[:, None], qd)
    u, _, vh = torch.linalg.svd(a)
    fix = torch.ones_like(a[:, :, 0])
    fix[:, 2] = torch.sign(torch.det(u @ vh))
    rot = u @ torch.diag_embed(fix) @ vh
    return (c + rot @ qd).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NB"] * s["P"]
    return {"bytes": 40 * n, "flops": 40 * n}
