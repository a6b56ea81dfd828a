"""Semi-implicit Fourier-spectral Cahn-Hilliard step (Chen & Shen 1998, stabilised) for PFHub benchmark 1.

PFHub BM1 (spinodal decomposition): f(c) = rho (c - c_a)^2 (c_b - c)^2 with rho = 5, c_a = 0.3, c_b = 0.7,
kappa = 2, M = 5, initial c = 0.5 + eps (cos(0.105x)cos(0.11y) + (cos(0.13x)cos(0.087y))^2
+ cos(0.025x - 0.15y)cos(0.07x - 0.02y)), eps = 0.01; here on a periodic grid. With c_hat = rfft2(c)
and g_hat = rfft2(f'(c)), the k-space update treating the gradient term (and a linear stabiliser A)
implicitly is
    c_hat_new = (c_hat (1 + dt M A k^2) - dt M k^2 g_hat) / (1 + dt M A k^2 + dt M kappa k^4),
k^2 = kx^2 + ky^2 with kx = 2 pi rfftfreq(nx, dx), ky = 2 pi fftfreq(ny, dx). The spectra are handed
over as float pairs (torch.view_as_real: [ny, nx // 2 + 1, 2], re/im interleaved); the output has the
same layout. The multiplier is real, so re and im of one mode get the same factor.
"""
import math

import torch

META = {
    "name": "spectral_cahn_hilliard_step",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 32, "ny": 16},
        "ragged": {"nx": 38, "ny": 10},
        "large": {"nx": 2048, "ny": 2048},
    },
    "baseline_notes": "Persistent grid of min(40, blocks) programs looping over chunks of 1024 floats of one "
                      "spectrum row (ky is a scalar per block, kx = 2 pi (q >> 1) / (nx dx) from the float "
                      "column q); c_hat and g_hat are contiguous loads, one store; no autotune.",
    "deterministic": True,
}
RHO, C_A, C_B = 5.0, 0.3, 0.7


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """c_hat, g_hat [ny, nx//2+1, 2] (ortho-normalised rfft2 of c and of f'(c)), nx, dx, dt, M, kappa, A."""
    s = META["sizes"][size]
    nx, ny = s["nx"], s["ny"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dx = 1.0
    y = torch.arange(ny, dtype=torch.float64)[:, None] * dx
    x = torch.arange(nx, dtype=torch.float64)[None, :] * dx
    c = 0.5 + 0.01 * (torch.cos(0.105 * x) * torch.cos(0.11 * y)
                      + (torch.cos(0.13 * x) * torch.cos(0.087 * y)) ** 2
                      + torch.cos(0.025 * x - 0.15 * y) * torch.cos(0.07 * x - 0.02 * y))
    c = c + 0.005 * torch.randn(ny, nx, generator=g, dtype=torch.float64)
    dfdc = 2.0 * RHO * (c - C_A) * (C_B - c) * (C_A + C_B - 2.0 * c)
    c_hat = torch.view_as_real(torch.fft.rfft2(c, norm="ortho")).contiguous()
    g_hat = torch.view_as_real(torch.fft.rfft2(dfdc, norm="ortho")).contiguous()
    return c_hat.to(dt).to(device), g_hat.to(dt).to(device), nx, dx, 1.0, 5.0, 2.0, 2.0


def reference(c_hat: torch.Tensor, g_hat: torch.Tensor, nx: int, dx: float, dt: float, mobility: float,
              kappa: float, stab: float) -> torch.Tensor:
    ny = c_hat.shape[0]
    kx = 2.0 * math.pi * torch.fft.rfftfreq(nx, d=dx, dtype=torch.float64, device=c_hat.device)
    ky = 2.0 * math.pi * torch.fft.fftfreq(ny, d=dx, dtype=torch.float64, device=c_hat.device)
    k2 = (ky[:, None] ** 2 + kx[None, :] ** 2)[..., None]
    a, b = dt * mobility * stab, dt * mobility
    num = c_hat.double() * (1.0 + a * k2) - b * k2 * g_hat.double()
    den = 1.0 + a * k2 + dt * mobility * kappa * k2 * k2
    return (num / den).to(c_hat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ny"] * (s["nx"] // 2 + 1) * 2
    return {"bytes": 12 * n, "flops": 12 * n}
