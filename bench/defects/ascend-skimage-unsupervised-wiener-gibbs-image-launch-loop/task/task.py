"""The Fourier-domain Gibbs step of unsupervised Wiener-Hunt deconvolution
(scikit-image restoration.unsupervised_wiener, Orieux et al. 2010), for a batch of images, each with its
own chain of noise precision gn and prior precision gx.

Per image b and frequency f (full unitary FFT, is_real=False, so image_quad_norm is a plain sum):
    precision = gn * |H|^2 + gx * |L|^2                                   (Eq. 29)
    x_sample  = gn * conj(H) / precision * Y + sqrt(0.5 / precision) * (n1 + i n2)
    e_lik     = sum_f |Y - H x_sample|^2        (drawn next: gn ~ Gamma(N / 2, 2 / e_lik))
    e_prior   = sum_f |L x_sample|^2            (drawn next: gx ~ Gamma((N - 1) / 2, 2 / e_prior))
H is the PSF's transfer function (complex, shared), L the Laplacian regulariser's (real, shared),
Y the data spectrum, n1, n2 the iteration's standard normals. Complex arrays are split into real and
imaginary fp32 planes. Returns (x_re [B, H, W], x_im [B, H, W], energies [B, 2] = (e_lik, e_prior)).
"""
import math

import torch

META = {
    "name": "unsupervised_wiener_gibbs_step",
    "level": 2,
    "category": "elementwise-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "H": 48, "W": 48},
        "ragged": {"B": 2, "H": 45, "W": 61},
        "large": {"B": 64, "H": 256, "W": 256},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) loop over (image, block of 2,048 "
                      "frequencies) pairs decoded from the scalar work index; each block loads Y, H, L and the "
                      "two normals, writes the sample and its two partial energies to a [B, blocks, 2] buffer; "
                      "a second kernel (min(40, B) programs looping over images) sums each image's partials in "
                      "block order; no autotune.",
    "deterministic": True,
}


def _transfer(kernel: torch.Tensor, h: int, w: int) -> torch.Tensor:
    """skimage uft.ir2tf: the impulse response zero-padded to (h, w), centred on [0, 0], FFT'd."""
    kh, kw = kernel.shape
    pad = torch.zeros(h, w, dtype=torch.float64)
    pad[:kh, :kw] = kernel
    pad = torch.roll(pad, shifts=(-(kh // 2), -(kw // 2)), dims=(0, 1))
    return torch.fft.fft2(pad)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y_re, y_im [B, H, W] (unitary spectra of blurred noisy images), h_re, h_im [H, W] (Gaussian PSF
    transfer function), lap [H, W] (Laplacian transfer function), n1, n2 [B, H, W] (standard normals),
    gamma [B, 2] (gn, gx of each image's chain)."""
    s = META["sizes"][size]
    b, h, w = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = torch.arange(5, dtype=torch.float64) - 2
    psf = torch.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / 2.0)
    tf = _transfer(psf / psf.sum(), h, w)
    lap = _transfer(torch.tensor([[0.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 0.0]],
                                 dtype=torch.float64), h, w).real
    yy = torch.linspace(0, 1, h, dtype=torch.float64)[:, None]
    xx = torch.linspace(0, 1, w, dtype=torch.float64)[None, :]
    scene = 0.5 + 0.4 * torch.sin(2 * math.pi * (2 * xx + 3 * yy)) * torch.rand(b, 1, 1, generator=g,
                                                                                dtype=torch.float64)
    sigma = 0.01 + 0.04 * torch.rand(b, 1, 1, generator=g, dtype=torch.float64)
    blurred = torch.fft.ifft2(torch.fft.fft2(scene) * tf).real
    noisy = blurred + sigma * torch.randn(b, h, w, generator=g, dtype=torch.float64)
    spec = torch.fft.fft2(noisy, norm="ortho")
    n1 = torch.randn(b, h, w, generator=g, dtype=torch.float64)
    n2 = torch.randn(b, h, w, generator=g, dtype=torch.float64)
    gn = 1.0 / sigma.reshape(b) ** 2 * (0.8 + 0.4 * torch.rand(b, generator=g, dtype=torch.float64))
    gx = 0.05 + 2.0 * torch.rand(b, generator=g, dtype=torch.float64)
    gamma = torch.stack((gn, gx), dim=1)
    cast = lambda t: t.to(device=device, dtype=dt).contiguous()  # noqa: E731
    return (cast(spec.real), cast(spec.imag), cast(tf.real), cast(tf.imag), cast(lap), cast(n1), cast(n2),
            cast(gamma))


def reference(y_re, y_im, h_re, h_im, lap, n1, n2, gamma) -> tuple:
    y = torch.complex(y_re.double(), y_im.double())
    tf = torch.complex(h_re.double(), h_im.double())
    reg = lap.double()
    gn = gamma.double()[:, 0, None, None]
    gx = gamma.double()[:, 1, None, None]
    precision = gn * tf.abs() ** 2 + gx * reg ** 2
    excursion = torch.sqrt(0.5 / precision) * torch.complex(n1.double(), n2.double())
    x = gn * tf.conj() / precision * y + excursion
    e_lik = ((y - x * tf).abs() ** 2).sum(dim=(1, 2))
    e_prior = ((x * reg).abs() ** 2).sum(dim=(1, 2))
    return (x.real.to(y_re.dtype), x.imag.to(y_re.dtype), torch.stack((e_lik, e_prior), dim=1).to(y_re.dtype))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["W"]
    return {"bytes": 4 * 6 * n + 4 * 3 * s["H"] * s["W"], "flops": 40 * n}
