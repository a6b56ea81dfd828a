"""SNR reconstruction of GstLAL's LLOIID SVD filtering (gstlal_inspiral, the lal_matrixmixer element).

GstLAL filters whitened strain against an SVD-decomposed template bank: the 2M real rows of the bank
(real and imaginary part of M complex templates) are approximated as H ~ U S Vt, the data are filtered
with the B orthonormal basis filters (rows of Vt), and the per-template complex SNR time series are
rebuilt by mixing the basis-filter outputs with the reconstruction matrix mix = U S [2M, B] (one row of
B coefficients per template quadrature):

    snr[t, c] = sum_b basis[t, b] * mix[c, b]        (c = 2m: Re SNR_m, c = 2m + 1: Im SNR_m)

basis [T, B] is time-major with one channel per basis filter (the layout of a GStreamer audio buffer),
so is the output [T, 2M]. All fp32, as in gstlal; the tolerance admits tf32 tensor-core products (the
SVD truncation of the bank itself already keeps only 99.999% of the template power).
"""
import torch

META = {
    "name": "svd_snr_reconstruction",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 50, "B": 20, "M": 24},
        "ragged": {"T": 77, "B": 37, "M": 19},
        "large": {"T": 16384, "B": 256, "M": 1000},
    },
    "baseline_notes": "Output tiles of 32 samples x 32 channels, one program each; the basis axis is walked in "
                      "steps of 16 with masked loads (both tiles contiguous along the basis axis) and each step "
                      "is a tl.dot of the sample tile with the transposed coefficient tile (tf32) into an fp32 "
                      "accumulator; "
                      "4 warps, default stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """basis [T, B] (unit-variance filter outputs of whitened noise), mix [2M, B] (reconstruction matrix U S)."""
    s = META["sizes"][size]
    T, B, M = s["T"], s["B"], s["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    basis = torch.randn(T, B, generator=g)
    # singular values of a chirp bank fall off roughly exponentially; every template is unit-normalised
    sv = torch.exp(-torch.arange(B, dtype=torch.float64) / (0.25 * B + 1.0))
    mix = torch.randn(2 * M, B, generator=g, dtype=torch.float64) * sv[None, :]
    mix = mix / mix.norm(dim=1, keepdim=True)
    return basis.to(device=device, dtype=dt), mix.to(device=device, dtype=dt)


def reference(basis: torch.Tensor, mix: torch.Tensor) -> torch.Tensor:
    return (basis.double() @ mix.double().T).to(basis.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, B, M = s["T"], s["B"], s["M"]
    return {"bytes": 4 * (T * B + B * 2 * M + T * 2 * M), "flops": 2 * T * B * 2 * M}
