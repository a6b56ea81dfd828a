"""Forward real spherical harmonic transform, Legendre stage (torch-harmonics RealSHT.forward after
the longitude rFFT), as in the SFNO blocks of FourCastNet v2 / makani and NVIDIA Modulus:

    out[b, c, l, m, :] = sum_k x[b, c, k, m, :] * weights[m, l, k]      (real and imaginary parts)

x is 2*pi*rfft(field, norm="forward") viewed as real, [B, C, nlat, nlon//2+1, 2]; weights are the
orthonormal associated Legendre functions at the Legendre-Gauss latitudes times the quadrature
weights, [mmax, lmax, nlat]. Output [B, C, lmax, mmax, 2] fp32."""
import math

import numpy as np
import torch

META = {
    "name": "sht_legendre_forward",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 4e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "C": 3, "NLAT": 12, "NLON": 24},
        "ragged": {"B": 2, "C": 5, "NLAT": 33, "NLON": 66},
        "large": {"B": 1, "C": 384, "NLAT": 240, "NLON": 480},
    },
    "baseline_notes": "A batched GEMM over m: grid (m, l-block, channel-block) of 64 x 64 output tiles, each "
                      "looping over the latitudes in 32-wide steps with two fp32 tl.dot (TF32) calls, one for the "
                      "real and one for the imaginary plane, sharing the transposed weight tile. No autotune.",
    "deterministic": True,
}


def _legendre_weights(nlat: int, lmax: int, mmax: int) -> torch.Tensor:
    """weights[m, l, k] = Pbar_l^m(cos theta_k) * w_k (orthonormal, Condon-Shortley phase), fp64."""
    nodes, quad = np.polynomial.legendre.leggauss(nlat)
    x = torch.from_numpy(nodes)
    w = torch.from_numpy(quad) * math.pi
    s = (1 - x * x).sqrt()
    p = torch.zeros(mmax, lmax, nlat, dtype=torch.float64)
    diag = torch.full_like(x, math.sqrt(1 / (4 * math.pi)))
    for m in range(mmax):
        if m > 0:
            diag = -math.sqrt((2 * m + 1) / (2 * m)) * s * diag
        if m < lmax:
            p[m, m] = diag
        if m + 1 < lmax:
            p[m, m + 1] = math.sqrt(2 * m + 3) * x * diag
    for ell in range(2, lmax):
        m = torch.arange(0, min(ell - 1, mmax), dtype=torch.float64)
        a = ((4 * ell * ell - 1) / (ell * ell - m * m)).sqrt()
        b = (((ell - 1) ** 2 - m * m) / (4 * (ell - 1) ** 2 - 1)).sqrt()
        mi = m.long()
        p[mi, ell] = a[:, None] * (x[None, :] * p[mi, ell - 1] - b[:, None] * p[mi, ell - 2])
    return p * w


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x: the scaled longitude rFFT of a random field (noise plus a per-channel meridional gradient) on
    the Legendre-Gauss grid, as real [B, C, nlat, nlon//2+1, 2]; weights [mmax, lmax, nlat] with
    torch-harmonics' defaults lmax = nlat, mmax = nlon//2+1."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nlat, nlon = s["NLAT"], s["NLON"]
    lmax, mmax = nlat, nlon // 2 + 1
    field = torch.randn(s["B"], s["C"], nlat, nlon, generator=g)
    field = field + torch.linspace(-1, 1, nlat)[:, None] * torch.randn(s["B"], s["C"], 1, 1, generator=g)
    x = torch.view_as_real(2 * math.pi * torch.fft.rfft(field, dim=-1, norm="forward")).contiguous()
    weights = _legendre_weights(nlat, lmax, mmax)
    return x.to(dt).to(device), weights.to(dt).to(device)


def reference(x: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    mmax = weights.shape[0]
    out = torch.einsum("bckmi,mlk->bclmi", x[..., :mmax, :].double(), weights.double())
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lmax, mmax = s["NLAT"], s["NLON"] // 2 + 1
    bc = s["B"] * s["C"]
    return {"bytes": 4 * (bc * s["NLAT"] * mmax * 2 + mmax * lmax * s["NLAT"] + bc * lmax * mmax * 2),
            "flops": 2 * 2 * bc * mmax * lmax * s["NLAT"]}
