"""Point-cloud Fresnel computer-generated hologram (CWO++ / GWO style point-source superposition).

Every object point j = (x_j, y_j, z_j, a_j) adds a Fresnel zone pattern to the hologram plane:
  U(x, y) = sum_j a_j exp(i * pi / (lambda z_j) * ((x - x_j)^2 + (y - y_j)^2)),
sampled at the SLM pixel centres x = (c - W/2) * pitch, y = (r - H/2) * pitch. The complex field is
returned as [H, W, 2] float32 (real, imaginary), as torch.view_as_real gives it.
"""
import math

import torch

META = {
    "name": "fresnel_point_cloud_cgh",
    "level": 2,
    "category": "optics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.15, "rtol": 2e-3}},
    "sizes": {
        "small": {"H": 6, "W": 20, "N": 12},
        "ragged": {"H": 5, "W": 37, "N": 45},
        "large": {"H": 1080, "W": 1920, "N": 2048},
    },
    "baseline_notes": "2-D grid (block of 128 pixels of a row, row): each program loops over the points in "
                      "chunks of 32, computes the [128, 32] Fresnel phases, cos and sin in fp32, sums the "
                      "amplitude-weighted terms over the chunk and stores the real and imaginary parts; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

PITCH = 8e-6          # SLM pixel pitch, m
WAVELENGTH = 532e-9   # green laser, m


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """points [N, 4] (x, y, z in metres, amplitude), H, W, pitch, wavelength."""
    s = META["sizes"][size]
    H, W, N = s["H"], s["W"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pts = torch.empty(N, 4, dtype=torch.float64)
    pts[:, 0] = (torch.rand(N, generator=g, dtype=torch.float64) - 0.5) * 0.8 * W * PITCH
    pts[:, 1] = (torch.rand(N, generator=g, dtype=torch.float64) - 0.5) * 0.8 * H * PITCH
    pts[:, 2] = 0.1 + 0.1 * torch.rand(N, generator=g, dtype=torch.float64)
    pts[:, 3] = 0.5 + 0.5 * torch.rand(N, generator=g, dtype=torch.float64)
    return pts.to(device=device, dtype=dt), H, W, PITCH, WAVELENGTH


def reference(points: torch.Tensor, H: int, W: int, pitch: float, wavelength: float) -> torch.Tensor:
    p = points.double()
    dev = points.device
    x = (torch.arange(W, device=dev, dtype=torch.float64) - W / 2) * pitch
    y = (torch.arange(H, device=dev, dtype=torch.float64) - H / 2) * pitch
    re = torch.zeros(H, W, device=dev, dtype=torch.float64)
    im = torch.zeros(H, W, device=dev, dtype=torch.float64)
    for s in range(0, p.shape[0], 16):
        q = p[s:s + 16]
        k = (math.pi / (wavelength * q[:, 2]))[:, None, None]
        r2 = (x[None, None, :] - q[:, 0, None, None]) ** 2 + (y[None, :, None] - q[:, 1, None, None]) ** 2
        theta = k * r2
        a = q[:, 3, None, None]
        re += (a * torch.cos(theta)).sum(0)
        im += (a * torch.sin(theta)).sum(0)
    return torch.stack((re, im), dim=-1).to(points.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["N"] + 8 * s["H"] * s["W"], "flops": 12 * s["H"] * s["W"] * s["N"]}
