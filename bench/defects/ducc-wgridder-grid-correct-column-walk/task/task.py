"""Post-FFT step of w-gridder imaging (ducc0 wgridder `grid2dirty_post`): crop, fftshift and grid-correct.

After the inverse 2-D FFT of the oversampled uv grid (nu x nv cells, nu = sigma * nx), the dirty image
of nx x ny pixels is the real part of the grid's centre taken with an fftshift, divided by the Fourier
transform of the gridding kernel (the "exponential of semicircle" kernel of support W):

    i2 = (i - nx/2) mod nu,  j2 = (j - ny/2) mod nv
    dirty[i, j] = Re(grid[i2, j2]) * cfu[|i - nx/2|] * cfv[|j - ny/2|]

cfu [nx/2 + 1] and cfv [ny/2 + 1] hold 1 / psi_hat (precomputed once per image geometry, as ducc does).
grid is the complex64 FFT output stored as fp32 (real, imaginary) pairs [nu, nv, 2]; returns dirty fp32 [nx, ny].
"""
import math

import torch

META = {
    "name": "wgridder_grid_correct",
    "level": 1,
    "category": "radio-interferometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"nx": 16, "ny": 16, "nu": 24, "nv": 24},
        "ragged": {"nx": 22, "ny": 14, "nu": 34, "nv": 22},
        "large": {"nx": 8192, "ny": 8192, "nu": 12288, "nv": 12288},
    },
    "baseline_notes": "Grid (image rows, column blocks of 1024): each program takes one dirty-image row i, "
                      "maps it to grid row i2 and its columns j to j2 with the fftshift wrap, loads the "
                      "real parts (stride 2 floats along the contiguous axis), multiplies by cfu[|i - nx/2|] "
                      "and the cfv vector, and stores the row segment contiguously. 4 warps, no autotune.",
    "deterministic": True,
}

SUPPORT = 8                 # kernel support W in grid cells
BETA = 2.3 * SUPPORT        # ES kernel shape parameter


def _correction(n_img: int, n_grid: int) -> torch.Tensor:
    """1 / psi_hat(k) for k = 0 .. n_img/2: the ES kernel's Fourier transform by trapezoid quadrature."""
    x = torch.linspace(-SUPPORT / 2, SUPPORT / 2, 4001, dtype=torch.float64)
    t = (2.0 * x / SUPPORT).clamp(-1.0, 1.0)
    phi = torch.exp(BETA * (torch.sqrt(1.0 - t * t) - 1.0))
    k = torch.arange(n_img // 2 + 1, dtype=torch.float64)
    psi = torch.trapezoid(phi[None, :] * torch.cos(2 * math.pi * k[:, None] * x[None, :] / n_grid), x, dim=1)
    return psi[0] / psi


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grid [nu, nv, 2] (the inverse-FFT'd oversampled grid), cfu [nx/2 + 1], cfv [ny/2 + 1], nx, ny."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    grid = torch.randn(s["nu"], s["nv"], 2, generator=g, dtype=torch.float32)
    cfu = _correction(s["nx"], s["nu"])
    cfv = _correction(s["ny"], s["nv"])
    return (grid.to(device=device, dtype=dt), cfu.to(device=device, dtype=dt), cfv.to(device=device, dtype=dt),
            s["nx"], s["ny"])


def reference(grid: torch.Tensor, cfu: torch.Tensor, cfv: torch.Tensor, nx: int, ny: int) -> torch.Tensor:
    nu, nv = grid.shape[0], grid.shape[1]
    i = torch.arange(nx, device=grid.device)
    j = torch.arange(ny, device=grid.device)
    i2 = (i - nx // 2) % nu
    j2 = (j - ny // 2) % nv
    re = grid[..., 0][i2][:, j2].double()
    corr = cfu.double()[(i - nx // 2).abs()][:, None] * cfv.double()[(j - ny // 2).abs()][None, :]
    return (re * corr).to(grid.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["nx"] * s["ny"] + 4 * s["nx"] * s["ny"], "flops": 2 * s["nx"] * s["ny"]}
