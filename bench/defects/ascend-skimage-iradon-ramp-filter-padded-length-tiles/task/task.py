"""Ramp filtering of parallel-beam sinograms, the first half of filtered back-projection (scikit-image iradon).

skimage.transform.iradon zero-pads every projection (a row of N detector bins) to the FFT length
    P = max(64, 2 ** ceil(log2(2 N)))
and multiplies its spectrum by the ramp filter 2 * fft(f), where f is the spatial Ram-Lak kernel
    f[0] = 1/4,  f[j] = -1 / (pi * n_j)^2 for odd j (n_j = min(j, P - j)),  f[j] = 0 for even j > 0;
the filtered projection is the real part of the inverse FFT cropped back to N bins. Because f is real
and symmetric this is a circular convolution with 2 f, i.e. the matrix product
    q[s, a, t] = sum_k p[s, a, k] * H[k, t],   H[k, t] = 2 f[(t - k) mod P],
with the input row zero beyond k = N and the output cropped to t < N. `filt` is that operator H at the
length P skimage filters at (one per detector geometry, built once on the host); only its leading
N x N block ever meets data. The sinogram stack is [slices, angles, bins] (ASTRA / TomoPy order,
detector bins contiguous); the back-projection that follows is not part of this task.
"""
import math

import torch

META = {
    "name": "iradon_ramp_filter",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 2, "A": 6, "N": 20},
        "ragged": {"S": 3, "A": 7, "N": 37},
        "large": {"S": 64, "A": 720, "N": 725},
    },
    "baseline_notes": "20 programs (the A2's cube cores) loop over 128 x 128 output tiles of the "
                      "[S*A, N] filtered sinogram; each tile runs a K loop of 64-wide steps over the N "
                      "real detector bins only (tl.dot of the sinogram tile with the leading N x N block "
                      "of the filter operator, fp32 accumulate); no autotune.",
    "deterministic": True,
}


def padded_length(n: int) -> int:
    """skimage's FFT length for a projection of n bins."""
    return max(64, 2 ** int(math.ceil(math.log2(2 * n))))


def _ramlak_spatial(P: int) -> torch.Tensor:
    """skimage's spatial ramp kernel f of length P (float64)."""
    j = torch.arange(P, dtype=torch.float64)
    n = torch.minimum(j, P - j)
    f = torch.where(j.remainder(2) == 1, -1.0 / (math.pi * n) ** 2, torch.zeros_like(j))
    f[0] = 0.25
    return f


def _ellipse_sinogram(S: int, A: int, N: int, g: torch.Generator) -> torch.Tensor:
    """Analytic parallel-beam Radon transform of random ellipse phantoms, one per slice (line integrals)."""
    theta = torch.arange(A, dtype=torch.float64) * (math.pi / A)
    t = torch.arange(N, dtype=torch.float64) - (N - 1) / 2
    R = (N - 1) / 2 / math.sqrt(2.0)             # radius of the image the sinogram was taken of
    out = torch.zeros(S, A, N, dtype=torch.float64)
    n_ell = 6
    for s in range(S):
        c = torch.rand(n_ell, 2, generator=g, dtype=torch.float64) * 1.0 - 0.5
        ax = torch.rand(n_ell, 2, generator=g, dtype=torch.float64) * 0.5 + 0.1
        phi = torch.rand(n_ell, generator=g, dtype=torch.float64) * math.pi
        rho = torch.rand(n_ell, generator=g, dtype=torch.float64) * 0.02 + 0.005  # attenuation / pixel
        ax[0] = torch.tensor([0.9, 0.75], dtype=torch.float64)
        c[0] = 0.0
        for e in range(n_ell):
            a_ax, b_ax = ax[e, 0] * R, ax[e, 1] * R
            x0, y0 = c[e, 0] * R * 0.5, c[e, 1] * R * 0.5
            s2 = (a_ax * torch.cos(theta - phi[e])) ** 2 + (b_ax * torch.sin(theta - phi[e])) ** 2
            tt = t[None, :] - (x0 * torch.cos(theta) + y0 * torch.sin(theta))[:, None]
            inside = (s2[:, None] - tt ** 2).clamp(min=0.0)
            out[s] += 2.0 * rho[e] * a_ax * b_ax * torch.sqrt(inside) / s2[:, None]
    return out


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sino [S, A, N] (line integrals), filt [P, P] (skimage's ramp filter as a circulant operator)."""
    s = META["sizes"][size]
    S, A, N = s["S"], s["A"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    distinct = min(S, 8)                          # neighbouring slices of a scan repeat the same phantoms
    sino = _ellipse_sinogram(distinct, A, N, g).repeat((S + distinct - 1) // distinct, 1, 1)[:S]
    sino += 0.01 * torch.randn(sino.shape, generator=g, dtype=torch.float64)   # photon noise
    P = padded_length(N)
    f = _ramlak_spatial(P)
    k = torch.arange(P)
    filt = 2.0 * f[(k[None, :] - k[:, None]).remainder(P)]
    return sino.to(dt).to(device), filt.to(dt).to(device)


def reference(sino: torch.Tensor, filt: torch.Tensor) -> torch.Tensor:
    """skimage's own path: zero-pad to P, multiply the FFT by the ramp filter, inverse FFT, crop."""
    N = sino.shape[-1]
    P = padded_length(N)
    fourier_filter = 2.0 * torch.fft.fft(_ramlak_spatial(P)).real
    padded = torch.nn.functional.pad(sino.double().cpu(), (0, P - N))
    q = torch.fft.ifft(torch.fft.fft(padded, dim=-1) * fourier_filter, dim=-1).real[..., :N]
    return q.to(sino.dtype).to(sino.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, N = s["S"] * s["A"], s["N"]
    return {"bytes": 8 * R * N + 4 * N * N, "flops": 2 * R * N * N}
