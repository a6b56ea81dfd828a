"""Range compression by frequency-domain matched filtering (GAMMA MSP pre_rc, ISCE2/ROI_PAC formslc).

Every raw echo line (Nr complex samples, zero-padded to Nfft) has been range-FFT'd; range compression
multiplies each line's spectrum by the same reference function, the conjugate spectrum of the
transmitted chirp exp(i pi K t^2) (pulse length Tp, sampled at fs, Nc = Tp * fs samples) tapered with a
Kaiser window, before the inverse FFT:
    Y[a, f] = X[a, f] * H[f]
X is given as fp32 planes x_re, x_im [Na, Nfft], H as h_re, h_im [Nfft]. Returns (y_re, y_im), fp32
[Na, Nfft]. The FFTs are outside this kernel.
"""
import math

import torch

META = {
    "name": "range_compress_matched_filter",
    "level": 1,
    "category": "sar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"Na": 4, "Nr": 40, "Nc": 9, "Nfft": 64},
        "ragged": {"Na": 5, "Nr": 70, "Nc": 13, "Nfft": 100},
        "large": {"Na": 8192, "Nr": 5616, "Nc": 704, "Nfft": 8192},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over 2-D blocks of 4 lines x 1024 frequency "
                      "bins: the reference spectrum slice [1024] is loaded once per block and broadcast over the "
                      "lines, the complex product is two multiply-adds per plane, two stores. No autotune.",
    "deterministic": True,
}
FS = 18.96e6     # range sampling rate, Hz (ERS)
SLOPE = 4.189e11  # chirp FM rate, Hz/s (ERS)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x_re, x_im [Na, Nfft]: range spectra of raw lines (distributed scene: complex Gaussian echoes);
    h_re, h_im [Nfft]: conj(FFT(Kaiser-tapered chirp)), peak-normalised."""
    s = META["sizes"][size]
    na, nr, nc, nfft = s["Na"], s["Nr"], s["Nc"], s["Nfft"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    raw = torch.complex(torch.randn(na, nr, generator=g), torch.randn(na, nr, generator=g)) * math.sqrt(0.5)
    x = torch.fft.fft(raw, n=nfft, dim=1, norm="ortho")
    t = (torch.arange(nc, dtype=torch.float64) - (nc - 1) / 2) / FS
    chirp = torch.polar(torch.ones(nc, dtype=torch.float64), math.pi * SLOPE * t * t)
    chirp = chirp * torch.kaiser_window(nc, periodic=False, beta=2.5, dtype=torch.float64)
    h = torch.fft.fft(chirp, n=nfft).conj()
    h = h / h.abs().max()
    planes = (x.real, x.imag, h.real, h.imag)
    return tuple(p.contiguous().to(device=device, dtype=dt) for p in planes)


def reference(x_re, x_im, h_re, h_im) -> tuple:
    x = torch.complex(x_re.double(), x_im.double())
    h = torch.complex(h_re.double(), h_im.double())
    y = x * h[None, :]
    return y.real.to(x_re.dtype), y.imag.to(x_re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Na"] * s["Nfft"]
    return {"bytes": 16 * n + 8 * s["Nfft"], "flops": 6 * n}
