"""Hopkins aerial image as a sum of coherent systems (SOCS), OpenILT pylitho.simple _computeImage.

OpenILT images a 2048x2048 mask (1 nm pixels) with K = 24 SOCS kernels of 35x35 frequency samples:
    F   = fft2(mask, norm="forward")
    E_k = ifft2(F * H_k, norm="forward")      (H_k placed at frequencies u, v = -17..17, zero elsewhere)
    I   = sum_k scale_k |E_k|^2
Since F * H_k is zero outside the 35x35 band, the inverse transform is a band-limited inverse DFT:
    E_k[x, y] = sum_{i,j} G_k[i, j] exp(2 pi 1j ((i - 17) x / H + (j - 17) y / W)),  G_k = F_band * H_k
i.e. E_k = Bx G_k By^T with Bx [H, 35], By [W, 35]: two small complex matrix products per kernel instead of a
full 2048x2048 inverse FFT per kernel (24 of them, 805 MB of complex fields).
Inputs: the mask spectrum band spec [35, 35, 2] (re, im; row i is u = i - 17, column j is v = j - 17), the
SOCS kernels [K, 35, 35, 2] on the same grid, scales [K], and the image size H, W. Returns I fp32 [H, W].
The tolerance is 5e-3 absolute on intensities in [0, ~1.1] (print threshold 0.225): near the threshold the
image rises by ~2e-3 to 6e-3 per 1 nm pixel, so it bounds a contour shift to 1-2 nm, an order below the 15 nm
EPE limit and below the model's own truncation error (the SOCS terms past the 24th are dropped).
"""
import math

import torch

META = {
    "name": "socs_aerial_band_idft",
    "level": 3,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"H": 64, "W": 64, "K": 4},
        "ragged": {"H": 96, "W": 80, "K": 5},
        "large": {"H": 2048, "W": 2048, "K": 24},
    },
    "baseline_notes": "Two launches. (1) grid (K, W/64): G_k = spec * H_k on a 64x64 zero-padded tile, times the "
                      "column basis exp(2 pi i v y / W) generated in-kernel (angles reduced as integers mod W), "
                      "four tl.dot -> T_k = G_k By^T stored as re/im planes [K, 2, 64, W] (25 MB, L2-resident). "
                      "(2) grid (H/128, W/64), 8 warps: the row basis exp(2 pi i u x / H) [128, 64] is built once "
                      "per program; for each kernel four tf32 tl.dot give Re/Im E_k and scale_k |E_k|^2 is "
                      "accumulated in registers; one store of I. No autotune.",
    "deterministic": True,
}
P = 35       # SOCS kernel size (frequency samples per axis)
HALF = 17    # P // 2: row i of a band array is frequency i - HALF


def _layout(H: int, W: int, g: torch.Generator) -> torch.Tensor:
    """A Manhattan metal-layer clip: 0/1 wires (60-100 px wide at 2048x2048, scaled down for small clips)."""
    mask = torch.zeros(H, W, dtype=torch.float64)
    scale = max(H / 2048.0, 0.125)
    for _ in range(max(3, int(40 * H * W / 2048 ** 2))):
        vertical = bool(torch.rand((), generator=g) < 0.3)
        w = max(2, int((60 + 40 * torch.rand((), generator=g).item()) * scale))
        ln = max(4, int((200 + 700 * torch.rand((), generator=g).item()) * scale))
        h_, w_ = (min(ln, H - 1), w) if vertical else (w, min(ln, W - 1))
        r0 = int(torch.randint(0, max(1, H - h_), (), generator=g))
        c0 = int(torch.randint(0, max(1, W - w_), (), generator=g))
        mask[r0:r0 + h_, c0:c0 + w_] = 1.0
    return mask


def _socs_kernels(K: int, g: torch.Generator) -> tuple:
    """Shifted pupils of an annular source (radius 10 of the 17 band samples, sigma 0.4-0.7) with a small
    quadratic (focus) phase; scales decay like the TCC eigenvalues and sum to 1 (clear field -> I = 1)."""
    R = 10.0
    f = (torch.arange(P) - HALF).double()
    ang = torch.rand(K, generator=g, dtype=torch.float64) * 2 * math.pi
    rad = (0.4 + 0.3 * torch.rand(K, generator=g, dtype=torch.float64)) * R
    kernels = []
    for k in range(K):
        rr = (f[:, None] + rad[k] * torch.cos(ang[k])) ** 2 + (f[None, :] + rad[k] * torch.sin(ang[k])) ** 2
        kernels.append((rr <= R * R).double() * torch.exp(1j * 0.4 * rr / (R * R)))
    scales = torch.exp(-torch.arange(K, dtype=torch.float64) / 8.0)
    return torch.stack(kernels), scales / scales.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spec [35, 35, 2], kernels [K, 35, 35, 2], scales [K] (fp32), H, W (ints)."""
    s = META["sizes"][size]
    H, W, K = s["H"], s["W"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    F = torch.fft.fft2(_layout(H, W, g), norm="forward")
    f = torch.arange(P) - HALF
    band = F[f % H][:, f % W]
    kernels, scales = _socs_kernels(K, g)
    put = lambda t: t.to(dtype=dt).to(device).contiguous()
    return put(torch.view_as_real(band)), put(torch.view_as_real(kernels)), put(scales), H, W


def reference(spec: torch.Tensor, kernels: torch.Tensor, scales: torch.Tensor, H: int, W: int) -> torch.Tensor:
    dev = spec.device
    f = (torch.arange(P, device=dev) - HALF).double()
    bx = torch.exp(2j * math.pi * torch.arange(H, device=dev).double()[:, None] * f[None, :] / H)
    by = torch.exp(2j * math.pi * torch.arange(W, device=dev).double()[:, None] * f[None, :] / W)
    band = torch.view_as_complex(spec.double().contiguous())
    ker = torch.view_as_complex(kernels.double().contiguous())
    image = torch.zeros(H, W, dtype=torch.float64, device=dev)
    for k in range(ker.shape[0]):
        e = bx @ ((band * ker[k]) @ by.T)
        image += scales[k].double() * (e.real ** 2 + e.imag ** 2)
    return image.to(spec.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    H, W, K = s["H"], s["W"], s["K"]
    return {"bytes": 4 * H * W + 8 * K * P * P, "flops": 8 * K * H * W * P + 8 * K * P * P * W}
