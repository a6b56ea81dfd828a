"""Global RX anomaly detector (Spectral Python `spectral.rx` / `RX` with background statistics).

Reed-Xiaoli score of every pixel of a band-interleaved-by-pixel cube x [rows, cols, bands]
against given background statistics (mean mu [bands], inverse covariance C^-1 [bands, bands],
as SPy's `rx(X, background=calc_stats(...))` uses them):

    r(x) = (x - mu)^T C^-1 (x - mu)          (squared Mahalanobis distance)

Returns the score image [rows, cols] fp32. The synthetic scene is a linear mixture of six smooth
endmember reflectance spectra with flat-Dirichlet abundances plus band-dependent sensor noise, a
few pixels carrying an implanted target; mu and C come from that mixing model (rank-5 signal
covariance plus the noise diagonal), so C^-1 is as badly conditioned as a real scene's.
"""
import torch

META = {
    "name": "rx_anomaly_scores",
    "level": 2,
    "category": "hyperspectral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"rows": 6, "cols": 7, "bands": 24},
        "ragged": {"rows": 9, "cols": 11, "bands": 37},
        "large": {"rows": 512, "cols": 614, "bands": 224},
    },
    "baseline_notes": "One program per 64 pixels: the centred pixel tile (x - mu) [64, 32] times C^-1 "
                      "[32, 128] with tl.dot (3xTF32, fp32-accurate) accumulated over band chunks, then "
                      "the row-wise product with (x - mu) summed per 128-band output chunk. 8 warps, "
                      "no autotune.",
    "deterministic": True,
}
N_ENDMEMBERS = 6


def _spectra(wl: torch.Tensor, k: int, g: torch.Generator) -> torch.Tensor:
    """k smooth reflectance curves over wavelengths wl (nm): a sloped continuum with absorption dips."""
    base = 0.15 + 0.35 * torch.rand(k, 1, generator=g) + 0.1 * torch.rand(k, 1, generator=g) * (wl - 400) / 2100
    for _ in range(4):
        centre = 450 + 2000 * torch.rand(k, 1, generator=g)
        width = 30 + 150 * torch.rand(k, 1, generator=g)
        depth = 0.12 * torch.rand(k, 1, generator=g)
        base = base - depth * torch.exp(-0.5 * ((wl - centre) / width) ** 2)
    return base.clamp(min=0.02)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Cube x [rows, cols, bands], background mean mu [bands] and inverse covariance [bands, bands]."""
    s = META["sizes"][size]
    h, w, b = s["rows"], s["cols"], s["bands"]
    n, k = h * w, N_ENDMEMBERS
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    wl = torch.linspace(400.0, 2500.0, b, dtype=torch.float64)
    ends = _spectra(wl, k, g)                                   # [k, b]
    sigma = 0.004 + 0.006 * (wl - 400) / 2100                   # noise grows toward SWIR
    expo = -torch.log(torch.rand(n, k, generator=g, dtype=torch.float64))
    abund = expo / expo.sum(1, keepdim=True)                    # flat Dirichlet
    x = abund @ ends + sigma * torch.randn(n, b, generator=g, dtype=torch.float64)
    targets = torch.randperm(n, generator=g)[: max(1, n // 1000)]
    target = _spectra(wl, 1, g)
    x[targets] = 0.7 * x[targets] + 0.3 * target
    # background statistics of the mixing model
    cov_a = torch.full((k, k), -1.0 / (k * k * (k + 1)), dtype=torch.float64)
    cov_a.diagonal().fill_((k - 1.0) / (k * k * (k + 1)))
    mu = ends.mean(0)
    cov = ends.T @ cov_a @ ends + torch.diag(sigma * sigma)
    cinv = torch.linalg.inv(cov)
    cinv = 0.5 * (cinv + cinv.T)
    return (x.reshape(h, w, b).to(device=device, dtype=dt), mu.to(device=device, dtype=dt),
            cinv.to(device=device, dtype=dt))


def reference(x: torch.Tensor, mu: torch.Tensor, cinv: torch.Tensor) -> torch.Tensor:
    h, w, b = x.shape
    flat = x.reshape(-1, b)
    m, ci = mu.double(), cinv.double()
    out = torch.empty(flat.shape[0], dtype=torch.float64, device=x.device)
    for start in range(0, flat.shape[0], 65536):
        y = flat[start:start + 65536].double() - m
        out[start:start + 65536] = ((y @ ci) * y).sum(-1)
    return out.reshape(h, w).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, b = s["rows"] * s["cols"], s["bands"]
    return {"bytes": 4 * (n * b + b * b + b + n), "flops": n * (2 * b * b + 3 * b)}
