"""PBE exchange-correlation on DFT grid points, single-precision quadrature (TeraChem-style mixed precision).

Closed-shell GGA input per point in PySCF's layout rho [4, N] = (n, dn/dx, dn/dy, dn/dz), sigma = |grad n|^2.
PBE = PBE exchange (kappa = 0.804, mu = 0.2195149727645171) + PBE correlation on PW92 (PW_MOD
parameters of libxc: A = 0.0310907, alpha1 = 0.21370, beta1..4 = 7.5957, 3.5876, 1.6382, 0.49294;
beta = 0.06672455060314922, gamma = (1 - ln 2) / pi^2):
    e_xc(n, sigma) = n eps_xc,   eps_xc = eps_x^unif F_x(s) + eps_c^PW92(r_s) + H(r_s, t)
Outputs in the form of PySCF's eval_xc_eff (what the Fock build contracts with the AO values):
    exc [N]     = eps_xc (energy per particle)
    vxc [4, N]  = (d e_xc / dn,  2 d e_xc / d sigma * grad n)
Points with n below 1e-10 (the far tails of the molecular grid) give zeros, as libxc's density threshold.
"""
import math

import torch

META = {
    "name": "pbe_xc_eval",
    "level": 1,
    "category": "quantum-chemistry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 2e-4}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 1537},
        # the whole molecular grid of a ~500-atom system (about 12k pruned points per atom)
        "large": {"N": 6000000},
    },
    "baseline_notes": "One fused elementwise kernel, programs of 1024 points (4 warps): loads n and the "
                      "gradient, evaluates PBE exchange and PW92 + H correlation and their derivatives in "
                      "fp32 registers, stores exc and the four vxc rows; no autotune.",
    "deterministic": True,
}

KAPPA, MU = 0.804, 0.2195149727645171
BETA, GAMMA = 0.06672455060314922, (1.0 - math.log(2.0)) / math.pi ** 2
PW_A, PW_A1, PW_B1, PW_B2, PW_B3, PW_B4 = 0.0310907, 0.21370, 7.5957, 3.5876, 1.6382, 0.49294
DENS_THRESHOLD = 1e-10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rho [4, N]: log-uniform densities 1e-8 .. 1e3 (3% far-tail points below the threshold), reduced
    gradients s in [0, 3] in random directions."""
    n_pts = META["sizes"][size]["N"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    n = 10.0 ** (-8.0 + 11.0 * torch.rand(n_pts, generator=g, dtype=torch.float64))
    tail = torch.rand(n_pts, generator=g) < 0.03
    n = torch.where(tail, 10.0 ** (-14.0 + 3.0 * torch.rand(n_pts, generator=g, dtype=torch.float64)), n)
    s = 3.0 * torch.rand(n_pts, generator=g, dtype=torch.float64)
    grad_norm = 2.0 * (3.0 * math.pi ** 2) ** (1.0 / 3.0) * n ** (4.0 / 3.0) * s
    direction = torch.randn(3, n_pts, generator=g, dtype=torch.float64)
    direction = direction / direction.norm(dim=0, keepdim=True)
    rho = torch.cat([n[None], grad_norm[None] * direction])
    return (rho.to(device=device, dtype=dt),)


def _pbe_energy_density(n: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    kf = (3.0 * math.pi ** 2 * n) ** (1.0 / 3.0)
    ex_unif = -0.75 * (3.0 / math.pi) ** (1.0 / 3.0) * n ** (4.0 / 3.0)
    s2 = sigma / (4.0 * kf ** 2 * n ** 2)
    fx = 1.0 + KAPPA - KAPPA / (1.0 + MU * s2 / KAPPA)
    rs = (3.0 / (4.0 * math.pi * n)) ** (1.0 / 3.0)
    q1 = 2.0 * PW_A * (PW_B1 * rs ** 0.5 + PW_B2 * rs + PW_B3 * rs ** 1.5 + PW_B4 * rs ** 2)
    ec = -2.0 * PW_A * (1.0 + PW_A1 * rs) * torch.log1p(1.0 / q1)
    ks = torch.sqrt(4.0 * kf / math.pi)
    t2 = sigma / (2.0 * ks * n) ** 2
    a = (BETA / GAMMA) / torch.expm1(-ec / GAMMA)
    at2 = a * t2
    h = GAMMA * torch.log1p((BETA / GAMMA) * t2 * (1.0 + at2) / (1.0 + at2 + at2 * at2))
    return ex_unif * fx + n * (ec + h)


def reference(rho: torch.Tensor) -> tuple:
    r = rho.double()
    dense = r[0] > DENS_THRESHOLD
    with torch.enable_grad():
        n = torch.where(dense, r[0], torch.ones_like(r[0])).requires_grad_(True)
        sigma = torch.where(dense, (r[1:] * r[1:]).sum(0), torch.zeros_like(r[0])).requires_grad_(True)
        e = _pbe_energy_density(n, sigma)
        vrho, vsigma = torch.autograd.grad(e.sum(), (n, sigma))
    exc = torch.where(dense, e.detach() / n.detach(), 0.0)
    vxc = torch.cat([vrho[None], 2.0 * vsigma[None] * r[1:]])
    vxc = torch.where(dense[None], vxc, 0.0)
    return exc.to(rho.dtype), vxc.to(rho.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n_pts = META["sizes"][size]["N"]
    return {"bytes": 4 * 4 * n_pts + 5 * 4 * n_pts, "flops": 150 * n_pts}
