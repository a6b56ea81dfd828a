"""BayesShrink soft thresholding of raveled wavelet detail coefficients (skimage.restoration.denoise_wavelet
with method='BayesShrink', mode='soft', wavelet='db1', on top of pywt.wavedec2 / pywt.ravel_coeffs / pywt.threshold).

Each of the C colour channels was decomposed with pywt.wavedec2(img, 'db1', level=J) and its 3J detail subbands
(cH, cV, cD per level, coarsest level first as pywt.ravel_coeffs lays them out, the approximation left out
because denoise_wavelet never thresholds it) were raveled into one row coeffs[c, :]; subband s occupies columns
offsets[s] .. offsets[s+1]-1 in every channel. With the channel's noise level sigma[c] (estimated upstream
from the finest diagonal band by the median absolute deviation), per subband (skimage's _bayes_thresh):
    dvar = mean(d^2),   thr = sigma^2 / sqrt(max(dvar - sigma^2, eps_float32)),
    out = sign(d) * max(|d| - thr, 0)                         (pywt.threshold(d, thr, mode='soft'))
Returns the thresholded coefficients, same layout as coeffs.
"""
import torch

META = {
    "name": "bayesshrink_soft_threshold",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 2, "H": 32, "W": 32, "levels": 3},
        "ragged": {"C": 3, "H": 48, "W": 40, "levels": 3},
        "large": {"C": 3, "H": 4096, "W": 4096, "levels": 9},
    },
    "baseline_notes": "Two launches over a (128 chunks, 3J subbands, C channels) grid: each program sums d^2 over "
                      "its 1/128 of one subband (1024-wide fp32 accumulator) and writes a partial; the threshold "
                      "kernel adds the subband's 128 partials, forms the BayesShrink threshold and soft-thresholds "
                      "its chunk. 4 warps, no autotune.",
    "deterministic": True,
}


def subband_sizes(h: int, w: int, levels: int) -> list:
    """Element counts of the detail subbands in pywt.ravel_coeffs order (level J first, cH/cV/cD each)."""
    dims = []
    for _ in range(levels):
        h, w = (h + 1) // 2, (w + 1) // 2          # pywt.dwt_coeff_len(n, 2, 'symmetric')
        dims.append(h * w)
    return [m for m in reversed(dims) for _ in range(3)]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coeffs [C, T] (noise plus Laplacian-distributed image detail), offsets int32 [3J+1], sigma [C]."""
    s = META["sizes"][size]
    c, levels = s["C"], s["levels"]
    sizes = subband_sizes(s["H"], s["W"], levels)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sigma = 0.03 + 0.05 * torch.rand(c, generator=g)
    bands = []
    for i, m in enumerate(sizes):
        level = levels - i // 3                       # 1 = finest
        scale = sigma[:, None] * (1.0 + 0.8 * level)  # Laplacian scale of the image detail in this band
        u = torch.rand(c, m, generator=g) - 0.5
        detail = -scale * torch.sign(u) * torch.log1p(-2.0 * u.abs())
        bands.append(detail + sigma[:, None] * torch.randn(c, m, generator=g))
    coeffs = torch.cat(bands, dim=1)
    offsets = torch.tensor([0] + torch.tensor(sizes).cumsum(0).tolist(), dtype=torch.int32)
    return coeffs.to(device=device, dtype=dt), offsets.to(device), sigma.to(device=device, dtype=dt)


def reference(coeffs: torch.Tensor, offsets: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    d64 = coeffs.double()
    var = sigma.double() ** 2
    eps = torch.finfo(coeffs.dtype).eps
    bounds = offsets.tolist()
    out = torch.empty_like(coeffs)
    for s in range(len(bounds) - 1):
        d = d64[:, bounds[s]:bounds[s + 1]]
        dvar = (d * d).mean(dim=1)
        thr = var / torch.sqrt(torch.clamp(dvar - var, min=eps))
        out[:, bounds[s]:bounds[s + 1]] = (torch.sign(d) * torch.clamp(d.abs() - thr[:, None], min=0.0)).to(coeffs.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    t = s["C"] * sum(subband_sizes(s["H"], s["W"], s["levels"]))
    return {"bytes": 12 * t, "flops": 6 * t}
