"""D3Q19 MRT collision in d'Humieres' orthogonal moment basis (lbmpy create_mrt_orthogonal, 'collide_only' sweep).

lbmpy's moment-based collision K(f) = M^-1 ((I - S) M f + S M feq), written on the non-equilibrium part:
    rho = sum_q f_q,  rho u = sum_q c_q f_q
    feq_q = w_q rho (1 + 3 c_q.u + 4.5 (c_q.u)^2 - 1.5 u.u)
    f'_q  = f_q - sum_i Minv[q, i] s_i sum_p M[i, p] (f_p - feq_p)
M is the 19x19 moment matrix of d'Humieres et al. (2002): rho, e, eps, j, q, 3p_xx, 3pi_xx, p_ww, pi_ww,
p_xy, p_yz, p_xz, m; Minv = M^T diag(1 / |row|^2) (the rows are orthogonal). Relaxation rates s are the
paper's: 1.19 (e), 1.4 (eps, pi), 1.2 (q), 1.98 (m), 1/tau for the five shear-stress moments, 0 for the
conserved ones. Populations in SoA ('fzyx') layout f[q, cell]. Returns f' [19, cells] fp32.
"""
import torch

META = {
    "name": "lbm_d3q19_mrt_collide",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 8, "NY": 4, "NZ": 4},
        "ragged": {"NX": 11, "NY": 5, "NZ": 3},
        "large": {"NX": 256, "NY": 256, "NZ": 256},
    },
    "baseline_notes": "1-D grid over cells, BLOCK = 32 cells per program, 4 warps; each program loads a "
                      "[32 cells, 32 directions] tile (19 padded to 32), forms feq, and does the two moment "
                      "transforms M (f - feq) and Minv (s * dm) as [32, 32] x [32, 32] tl.dot products "
                      "(input_precision tf32x3, fp32-accurate on tensor cores), then stores f - Minv s M (f - feq); "
                      "no autotune.",
    "deterministic": True,
}

C = [[0, 0, 0],
     [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
     [1, 1, 0], [-1, -1, 0], [1, -1, 0], [-1, 1, 0],
     [1, 0, 1], [-1, 0, -1], [1, 0, -1], [-1, 0, 1],
     [0, 1, 1], [0, -1, -1], [0, 1, -1], [0, -1, 1]]
W = [1.0 / 3.0] + [1.0 / 18.0] * 6 + [1.0 / 36.0] * 12
TAU = 0.52  # shear viscosity nu = (tau - 1/2) / 3


def moment_matrix() -> torch.Tensor:
    """d'Humieres et al. 2002, Phil. Trans. R. Soc. A 360: the 19 orthogonal D3Q19 moments (fp64)."""
    c = torch.tensor(C, dtype=torch.float64)
    x, y, z = c[:, 0], c[:, 1], c[:, 2]
    c2 = x * x + y * y + z * z
    one = torch.ones_like(x)
    rows = [one, 19 * c2 - 30, (21 * c2 * c2 - 53 * c2 + 24) / 2,
            x, (5 * c2 - 9) * x, y, (5 * c2 - 9) * y, z, (5 * c2 - 9) * z,
            3 * x * x - c2, (3 * c2 - 5) * (3 * x * x - c2),
            y * y - z * z, (3 * c2 - 5) * (y * y - z * z),
            x * y, y * z, x * z,
            (y * y - z * z) * x, (z * z - x * x) * y, (x * x - y * y) * z]
    return torch.stack(rows)


def relaxation_rates(tau: float) -> torch.Tensor:
    sv = 1.0 / tau
    return torch.tensor([0.0, 1.19, 1.4, 0.0, 1.2, 0.0, 1.2, 0.0, 1.2,
                         sv, 1.4, sv, 1.4, sv, sv, sv, 1.98, 1.98, 1.98], dtype=torch.float64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [19, cells] (post-streaming state of a decaying shear flow), c int32 [19, 3], w [19],
    M [19, 19], Minv [19, 19], s [19]."""
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    n = nx * ny * nz
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = torch.tensor(W, dtype=torch.float64)
    zz, yy, xx = torch.meshgrid(torch.arange(nz), torch.arange(ny), torch.arange(nx), indexing="ij")
    k = 2 * torch.pi
    ux = 0.05 * torch.sin(k * yy / ny) * torch.cos(k * zz / nz)
    uy = 0.03 * torch.sin(k * zz / nz + 0.4) * torch.cos(k * xx / nx)
    uz = 0.02 * torch.sin(k * xx / nx + 1.1)
    rho = 1.0 + 0.01 * torch.cos(k * xx / nx) * torch.sin(k * yy / ny)
    u = torch.stack([ux, uy, uz]).reshape(3, n).double()
    rho = rho.reshape(n).double()
    uu = (u * u).sum(0)
    f = torch.empty(len(C), n, dtype=dt)
    for q, (cq, wq) in enumerate(zip(C, W)):
        cu = cq[0] * u[0] + cq[1] * u[1] + cq[2] * u[2]
        feq = wq * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * uu)
        f[q] = feq * (1.0 + 1e-3 * torch.randn(feq.shape, generator=g, dtype=torch.float64))
    m = moment_matrix()
    m_inv = (m.T / (m * m).sum(1)[None, :]).contiguous()
    return (f.to(device), torch.tensor(C, dtype=torch.int32, device=device),
            w.to(dt).to(device), m.to(dt).to(device), m_inv.to(dt).to(device),
            relaxation_rates(TAU).to(dt).to(device))


def reference(f: torch.Tensor, c: torch.Tensor, w: torch.Tensor, m: torch.Tensor, m_inv: torch.Tensor,
              s: torch.Tensor) -> torch.Tensor:
    fd, cd = f.double(), c.double()
    rho = fd.sum(0)
    u = (cd.T @ fd) / rho
    cu = cd @ u
    feq = w.double()[:, None] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * (u * u).sum(0))
    dm = m.double() @ (fd - feq)
    return (fd - m_inv.double() @ (s.double()[:, None] * dm)).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["NZ"]
    return {"bytes": 2 * 19 * 4 * n, "flops": (2 * 2 * 19 * 19 + 200) * n}
