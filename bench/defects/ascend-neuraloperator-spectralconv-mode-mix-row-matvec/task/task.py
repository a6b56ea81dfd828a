"""Spectral mode mixing of a 2-D Fourier neural operator layer (neuraloperator SpectralConv, FNO-2D).

SpectralConv computes x_ft = rfft2(x) [B, I, H, W//2+1], keeps the low-frequency corners
x_ft[:, :, :m1, :m2] and x_ft[:, :, -m1:, :m2] (M = 2 * m1 * m2 retained modes) and mixes the
channels of every retained mode with its own complex weight matrix,
    out_ft[b, o, k] = sum_i x_ft[b, i, k] * W[i, o, k]      (einsum "bixy,ioxy->boxy"),
before irfft2. This task is that mixing step as the Ascend port runs it: the retained modes are
gathered modes-major next to the FFT, complex numbers are kept as separate real and imaginary
fp32 planes (the NPU kernels have no complex dtype), and the weights are stored modes-major too:
    x_re, x_im [M, B, I],  w_re, w_im [M, I, O]  ->  out_re, out_im [M, B, O]
    out[k] = x[k] @ w[k]   (complex, per mode k).
"""
import torch

META = {
    "name": "fno_spectral_mode_mix",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 4, "I": 16, "O": 16, "m1": 4, "m2": 4},
        "ragged": {"B": 3, "I": 20, "O": 12, "m1": 3, "m2": 5},
        "large": {"B": 32, "I": 64, "O": 64, "m1": 32, "m2": 32},
    },
    "baseline_notes": "40 programs loop over the retained modes; per mode the whole batch tile [B, I] "
                      "and the mode's weight tile [I, O] (real and imaginary planes) go through four "
                      "tl.dot calls on the cube unit (re = xr@wr - xi@wi, im = xr@wi + xi@wr), fp32 "
                      "accumulation, one [B, O] store per plane; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Retained spectrum x_re, x_im [M, B, I] and modes-major complex weights w_re, w_im [M, I, O]."""
    s = META["sizes"][size]
    B, I, O = s["B"], s["I"], s["O"]
    M = 2 * s["m1"] * s["m2"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x_re = torch.randn(M, B, I, generator=g)
    x_im = torch.randn(M, B, I, generator=g)
    # neuraloperator's init: complex normal with std sqrt(2 / (in + out)) per weight
    std = (2.0 / (I + O)) ** 0.5
    w_re = torch.randn(M, I, O, generator=g) * std
    w_im = torch.randn(M, I, O, generator=g) * std
    return tuple(t.to(device=device, dtype=dt) for t in (x_re, x_im, w_re, w_im))


def reference(x_re: torch.Tensor, x_im: torch.Tensor, w_re: torch.Tensor, w_im: torch.Tensor) -> tuple:
    x = torch.complex(x_re.double(), x_im.double())
    w = torch.complex(w_re.double(), w_im.double())
    out = torch.einsum("mbi,mio->mbo", x, w)
    return out.real.to(x_re.dtype), out.imag.to(x_re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, I, O = s["B"], s["I"], s["O"]
    M = 2 * s["m1"] * s["m2"]
    return {"bytes": 4 * M * (2 * B * I + 2 * I * O + 2 * B * O), "flops": 8 * M * B * I * O}
