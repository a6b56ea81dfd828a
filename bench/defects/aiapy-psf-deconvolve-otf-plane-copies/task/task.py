"""Optical-transfer-function product of the Richardson-Lucy PSF deconvolution (aiapy.psf.deconvolve).

aiapy deconvolves a full-frame AIA image with the channel PSF by Richardson-Lucy in Fourier space:
    ratio     = img / irfft2(rfft2(img_decon) * otf)
    img_decon = img_decon * irfft2(rfft2(ratio) * conj(otf))
with otf = rfft2(psf rolled to pixel (0, 0)). This task is the spectral product of either step: given the
half spectrum of the current estimate (or of the ratio) and the OTF, return spec * otf, or spec * conj(otf)
for the correction step. torch.fft gives complex64; the Triton port passes the spectra as
torch.view_as_real views, float32 [H, W // 2 + 1, 2] (re, im interleaved), and returns the product in the
same layout. Spectra use norm="forward" (DC = image mean), which keeps the fp32 values at image scale.
"""
import math

import torch

META = {
    "name": "psf_otf_product",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 32, "W": 32},
        "ragged": {"H": 27, "W": 45},
        "large": {"H": 4096, "W": 4096},
    },
    "baseline_notes": "1-D grid over the H * (W // 2 + 1) complex bins, BLOCK = 1024, 4 warps; the kernel reads "
                      "re and im straight from the interleaved view_as_real buffers (two stride-2 loads per "
                      "operand over the same cache lines), does the complex multiply (conjugate as a constexpr) "
                      "and stores re, im interleaved into the output; no autotune.",
    "deterministic": True,
}

# aiapy filter_mesh_parameters for 171 A (entrance filter), Grigis et al. 2012
ANGLE_ARM_DEG = (49.81, 39.57, -40.13, -50.38)
SPACING_E = 16.26          # px between diffraction spikes
MESH_RATIO = 363.0 / 34.0  # mesh pitch / wire width
CORE_WIDTH = 4.5           # exp(-width * r^2), px^-2
AREA_NOT_MESH = 0.82


def aia_psf(H: int, W: int) -> torch.Tensor:
    """Entrance-filter PSF of AIA 171 already rolled to pixel (0, 0) (periodic), unit sum, float64 [H, W]."""
    core = torch.zeros(H, W, dtype=torch.float64)
    spikes = torch.zeros(H, W, dtype=torch.float64)
    offs = torch.arange(-3, 4, dtype=torch.float64)

    def splat(img, x, y, amp):
        ix, iy = math.floor(x) + offs, math.floor(y) + offs
        g = torch.exp(-CORE_WIDTH * ((iy[:, None] - y) ** 2 + (ix[None, :] - x) ** 2)) * amp
        rows = iy.long().remainder(H)[:, None].expand(7, 7)
        cols = ix.long().remainder(W)[None, :].expand(7, 7)
        img.index_put_((rows.reshape(-1), cols.reshape(-1)), g.reshape(-1), accumulate=True)

    splat(core, 0.0, 0.0, 1.0)
    max_order = max(1, min(100, int(0.5 * min(H, W) / SPACING_E)))
    for order in range(-max_order, max_order + 1):
        if order == 0:
            continue
        intensity = math.sin(math.pi * order / MESH_RATIO) ** 2 / (math.pi * order / MESH_RATIO) ** 2
        for ang in ANGLE_ARM_DEG:
            a = math.radians(ang)
            splat(spikes, SPACING_E * math.cos(a) * order, SPACING_E * math.sin(a) * order, intensity)
    if spikes.sum() == 0:
        return core / core.sum()
    return (1 - AREA_NOT_MESH) * spikes / spikes.sum() + AREA_NOT_MESH * core / core.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spec, otf: float32 [H, W // 2 + 1, 2] (view_as_real of rfft2, norm="forward"); conjugate (bool):
    even seeds give the forward-blur product of the estimate's spectrum, odd seeds the correction product
    of the ratio's spectrum with conj(otf)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.arange(H, dtype=torch.float64)[:, None] - (H - 1) / 2
    xx = torch.arange(W, dtype=torch.float64)[None, :] - (W - 1) / 2
    rho = torch.sqrt(xx ** 2 + yy ** 2) / (0.39 * max(H, W))
    img = 300.0 * (0.6 + 0.4 * torch.sqrt(torch.clamp(1 - rho ** 2, min=0.0))) * (rho < 1) \
        + 120.0 * torch.exp(-torch.clamp(rho - 1.0, min=0.0) * 5.0) * (rho >= 1)
    for _ in range(5):  # active regions
        cy, cx = (torch.rand(2, generator=g, dtype=torch.float64) - 0.5) * 0.6 * min(H, W)
        w = (0.01 + 0.02 * torch.rand(1, generator=g).item()) * max(H, W)
        amp = 800.0 + 2500.0 * torch.rand(1, generator=g).item()
        img = img + amp * torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * w * w))
    img = torch.poisson(img, generator=g)                       # photon noise, DN
    otf = torch.fft.rfft2(aia_psf(H, W))
    conjugate = seed % 2 == 1
    if conjugate:   # spectrum of the ratio img / (estimate convolved with the PSF), estimate = first guess
        blurred = torch.fft.irfft2(torch.fft.rfft2(img) * otf, s=(H, W))
        spec = torch.fft.rfft2(img / blurred.clamp(min=1.0), norm="forward")
    else:
        spec = torch.fft.rfft2(img, norm="forward")
    as_real = lambda z: torch.view_as_real(z.to(torch.complex64)).contiguous().to(dt).to(device)
    return as_real(spec), as_real(otf), conjugate


def reference(spec: torch.Tensor, otf: torch.Tensor, conjugate: bool) -> torch.Tensor:
    a = torch.view_as_complex(spec.double().contiguous())
    h = torch.view_as_complex(otf.double().contiguous())
    out = a * (h.conj() if conjugate else h)
    return torch.view_as_real(out).to(spec.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * (s["W"] // 2 + 1)
    return {"bytes": 24 * n, "flops": 6 * n}
