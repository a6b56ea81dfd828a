"""SENSE adjoint coil combination of multi-coil MRI images (BART `fmac -C -s 8`, SigPy Sense.H's coil sum).

After the inverse FFT of every coil's k-space, the C coil images y_c are combined with the coil sensitivity
maps S_c (ESPIRiT maps, normalised so that sum_c |S_c|^2 = 1 inside the object):

    x(r) = sum_c conj(S_c(r)) * y_c(r)

Complex values are stored interleaved (torch.view_as_real): coil images and maps [C, H, W, 2] fp32, the
combined image [H, W, 2] fp32.
"""
import math

import torch

META = {
    "name": "sense_coil_combine",
    "level": 1,
    "category": "elementwise-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 4, "H": 16, "W": 24},
        "ragged": {"C": 3, "H": 13, "W": 19},
        "large": {"C": 16, "H": 640, "W": 320},
    },
    "baseline_notes": "One launch: programs of 512 pixels each loop over the coils, loading the pixel block of "
                      "the coil image and of the map as [512, 2] tiles (split into re / im), and keep the "
                      "conj(S) * y sum in fp32 registers; one interleaved store per pixel. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coil_img [C, H, W, 2] and sens [C, H, W, 2] (interleaved complex)."""
    s = META["sizes"][size]
    C, H, W = s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, H, dtype=torch.float64),
                            torch.linspace(-1, 1, W, dtype=torch.float64), indexing="ij")
    # object: an elliptical head with a few inner ellipses and a smooth background phase
    obj = ((xx / 0.7) ** 2 + (yy / 0.9) ** 2 <= 1).double()
    for _ in range(4):
        cx, cy = (torch.rand(2, generator=g, dtype=torch.float64) - 0.5) * 0.8
        ax, ay = 0.08 + 0.2 * torch.rand(2, generator=g, dtype=torch.float64)
        obj += (0.5 - torch.rand(1, generator=g, dtype=torch.float64)) * (((xx - cx) / ax) ** 2 + ((yy - cy) / ay) ** 2 <= 1)
    obj = obj * torch.exp(1j * math.pi * 0.3 * (xx + 0.5 * yy))
    # coil sensitivities: smooth Gaussian profiles around the head, each with its own phase, normalised
    ang = 2 * math.pi * (torch.arange(C, dtype=torch.float64) + torch.rand(C, generator=g, dtype=torch.float64) * 0.3) / C
    prof = torch.exp(-((xx[None] - 1.2 * torch.cos(ang)[:, None, None]) ** 2
                       + (yy[None] - 1.2 * torch.sin(ang)[:, None, None]) ** 2) / 1.5)
    phase = torch.exp(1j * (ang[:, None, None] + 0.4 * xx[None] * torch.sin(ang)[:, None, None]))
    sens = prof * phase
    sens = sens / torch.sqrt((sens.abs() ** 2).sum(0, keepdim=True))
    noise = torch.randn(C, H, W, 2, generator=g, dtype=torch.float64) * 0.01
    coil = torch.view_as_real(sens * obj[None]) + noise
    cast = lambda v: v.to(dtype=dt).to(device).contiguous()
    return cast(coil), cast(torch.view_as_real(sens))


def reference(coil_img: torch.Tensor, sens: torch.Tensor) -> torch.Tensor:
    y = torch.view_as_complex(coil_img.double().contiguous())
    s = torch.view_as_complex(sens.double().contiguous())
    return torch.view_as_real((s.conj() * y).sum(0)).to(coil_img.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 16 * s["C"] * n + 8 * n, "flops": 8 * s["C"] * n}
