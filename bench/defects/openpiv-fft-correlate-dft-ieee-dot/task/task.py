"""Normalized circular cross-correlation of every interrogation-window pair of a PIV image pair
(OpenPIV pyprocess: moving_window_array + fft_correlate_images(correlation_method='circular',
normalized_correlation=True)).

Windows of N x N px start every (N - overlap) px in both frames (row-major over the n_rows x n_cols
grid, n = (size - N) // (N - overlap) + 1 per axis). Each window is normalized as normalize_intensity
does: minus its mean, divided by its (population) standard deviation (0 if that is 0), negative values
clipped to 0. Then
    corr[w] = clip(fftshift(irfft2(conj(rfft2(a_w)) * rfft2(b_w))) / N^2, 0, 1),
i.e. corr[w, p, q] = clip(sum_ij a[i, j] b[(i + p - N/2) mod N, (j + q - N/2) mod N] / N^2, 0, 1):
zero displacement at the centre N/2. N is even. Returns corr [n_rows * n_cols, N, N] fp32.
"""
import torch

META = {
    "name": "piv_fft_correlate_windows",
    "level": 2,
    "category": "piv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 6e-3, "rtol": 6e-3}},
    "sizes": {
        "small": {"H": 64, "W": 80, "window": 16, "overlap": 8},
        "ragged": {"H": 61, "W": 77, "window": 24, "overlap": 12},
        "large": {"H": 4384, "W": 6576, "window": 32, "overlap": 16},
    },
    "baseline_notes": "One program per window pair: both N x N windows loaded as [BN, BN] tiles "
                      "(BN = next_power_of_2(N)), normalized in registers, 2-D DFTs as products with the "
                      "cos / sin DFT matrices (tl.dot, default tf32 precision; 6 real products per forward "
                      "transform, 6 for the inverse), the fftshift folded in as a (-1)^(k+l) sign on the "
                      "cross spectrum, scaled by 1/N^4 and clipped; 4 warps, no autotune. The tolerance "
                      "admits tf32 products (~3e-3 absolute on values up to ~0.8).",
    "deterministic": True,
}


def _render(px: torch.Tensor, py: torch.Tensor, amp: torch.Tensor, sig: torch.Tensor, H: int, W: int) -> torch.Tensor:
    """Gaussian particle images (5 x 5 px footprint) summed into an [H, W] fp32 frame."""
    img = torch.zeros(H * W)
    cx, cy = px.floor(), py.floor()
    fx, fy = (px - cx).float(), (py - cy).float()
    cx, cy = cx.long(), cy.long()
    a, k = amp.float(), (-0.5 / sig ** 2).float()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            xx, yy = cx + dx, cy + dy
            inside = ((xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)).float()
            val = inside * a * torch.exp(((dx - fx) ** 2 + (dy - fy) ** 2) * k)
            img.index_add_(0, yy.clamp(0, H - 1) * W + xx.clamp(0, W - 1), val)
    return img.reshape(H, W)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A synthetic particle image pair [H, W] (0.02 particles per pixel, uniform stream plus a vortex,
    up to ~7 px displacement), the window size and the overlap."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_p = max(8, int(0.02 * H * W))
    px = torch.rand(n_p, generator=g, dtype=torch.float64) * W
    py = torch.rand(n_p, generator=g, dtype=torch.float64) * H
    amp = 80 + 140 * torch.rand(n_p, generator=g, dtype=torch.float64)
    sig = 0.7 + 0.3 * torch.rand(n_p, generator=g, dtype=torch.float64)
    rc = 0.15 * min(H, W)
    r2 = (px - 0.45 * W) ** 2 + (py - 0.55 * H) ** 2 + 1e-6
    swirl = 9.4 * rc * (1 - torch.exp(-r2 / rc ** 2)) / r2
    du, dv = 2.0 - swirl * (py - 0.55 * H), 0.5 + swirl * (px - 0.45 * W)
    frame_a = _render(px, py, amp, sig, H, W) + 8.0 + 3.0 * torch.rand(H, W, generator=g)
    frame_b = _render(px + du, py + dv, amp, sig, H, W) + 8.0 + 3.0 * torch.rand(H, W, generator=g)
    cast = dict(device=device, dtype=dt)
    return frame_a.clamp(0, 255).to(**cast), frame_b.clamp(0, 255).to(**cast), s["window"], s["overlap"]


def _windows(frame: torch.Tensor, N: int, step: int) -> torch.Tensor:
    return frame.unfold(0, N, step).unfold(1, N, step).reshape(-1, N, N)


def _normalize(w: torch.Tensor) -> torch.Tensor:
    w = w - w.mean(dim=(-2, -1), keepdim=True)
    sd = w.pow(2).mean(dim=(-2, -1), keepdim=True).sqrt()
    w = torch.where(sd > 0, w / torch.where(sd > 0, sd, torch.ones_like(sd)), torch.zeros_like(w))
    return w.clamp(min=0)


def reference(frame_a: torch.Tensor, frame_b: torch.Tensor, window: int, overlap: int) -> torch.Tensor:
    N, step = window, window - overlap
    out = []
    wa, wb = _windows(frame_a, N, step), _windows(frame_b, N, step)
    for s in range(0, wa.shape[0], 16384):
        a = _normalize(wa[s:s + 16384].double())
        b = _normalize(wb[s:s + 16384].double())
        r = torch.fft.irfft2(torch.conj(torch.fft.rfft2(a)) * torch.fft.rfft2(b), s=(N, N))
        r = torch.fft.fftshift(r, dim=(-2, -1)) / (N * N)
        out.append(r.clamp(0, 1).to(frame_a.dtype))
    return torch.cat(out)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, step = s["window"], s["window"] - s["overlap"]
    n = ((s["H"] - N) // step + 1) * ((s["W"] - N) // step + 1)
    return {"bytes": 4 * (2 * s["H"] * s["W"] + n * N * N), "flops": n * 18 * 2 * N ** 3}
