"""Maximum-likelihood 2-D Gaussian PSF fit of single-molecule ROIs (GPUgaussMLE, Smith et al. 2010, fit type XYNB).

Every candidate spot is cut out of the camera frame as an SZ x SZ ROI of photon counts (pixel ii along
x, jj along y, pixel centres at integer coordinates). The model is the pixel-integrated symmetric
Gaussian with a known PSF width sigma:
    mu(ii, jj) = bg + N * Ex(ii) * Ey(jj),   Ex(ii) = 1/2 [erf((ii - x + 1/2) / (sqrt2 sigma)) - erf((ii - x - 1/2) / (sqrt2 sigma))]
and theta = (x, y, N, bg) maximises the Poisson log-likelihood. Start: centre of mass, background =
ROI minimum, photons = background-subtracted sum. Then `iterations` Newton-Raphson steps on each
parameter separately (the GPUgaussMLE update):
    cf = data / mu - 1, df = data / mu^2   (0 where mu <= 1e-2, both clipped at 1e4)
    num_k = sum dmu/dtheta_k * cf,   den_k = sum d2mu/dtheta_k^2 * cf - (dmu/dtheta_k)^2 * df
    theta_k -= gamma_k * clip(num_k / den_k, -maxjump_k, maxjump_k),   maxjump = (1, 1, 100, 2),
    gamma = (1, 1, 0.5, 1) in the first two iterations and 1 afterwards; N >= 1, bg >= 0.01.
Returns theta parameter-major [4, n_fits] (x, y, N, bg: GPUgaussMLE's d_Parameters layout) and the
log-likelihood ratio sum(data log(mu / data) - mu + data) [n_fits].
"""
import math

import torch

META = {
    "name": "gauss_mle_fit_xynb",
    "level": 3,
    "category": "psf-fitting",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"n_fits": 24, "SZ": 7, "iterations": 10},
        "ragged": {"n_fits": 37, "SZ": 9, "iterations": 10},
        "large": {"n_fits": 100000, "SZ": 7, "iterations": 10},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 16 ROIs; a block is one "
                      "[16, 64] tile (SZ*SZ = 49 pixels padded to 64), every Newton sum is a row reduction "
                      "and theta lives in [16]-vectors across the iterations; parameter-major stores. "
                      "No autotune.",
    "deterministic": True,
}
PSF_SIGMA = 1.3  # pixels (about 1.3 x 100 nm pixels for a 670 nm emitter at NA 1.49)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ROIs [n_fits, SZ, SZ] of Poisson photon counts, the PSF sigma (px) and the Newton iteration count."""
    s = META["sizes"][size]
    n, sz = s["n_fits"], s["SZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = (sz - 1) / 2.0
    x0 = c + (torch.rand(n, generator=g, dtype=torch.float64) - 0.5) * 2.0
    y0 = c + (torch.rand(n, generator=g, dtype=torch.float64) - 0.5) * 2.0
    photons = 300.0 + torch.rand(n, generator=g, dtype=torch.float64) * 4700.0
    bg = 2.0 + torch.rand(n, generator=g, dtype=torch.float64) * 28.0
    mu = _model(torch.stack([x0, y0, photons, bg]), sz, PSF_SIGMA)
    rois = torch.poisson(mu, generator=g).reshape(n, sz, sz)
    return rois.to(dt).to(device), PSF_SIGMA, s["iterations"]


def _ex(coord: torch.Tensor, centre: torch.Tensor, sigma: float) -> torch.Tensor:
    r = 1.0 / (math.sqrt(2.0) * sigma)
    return 0.5 * (torch.erf((coord - centre + 0.5) * r) - torch.erf((coord - centre - 0.5) * r))


def _model(theta: torch.Tensor, sz: int, sigma: float) -> torch.Tensor:
    """mu [n, SZ*SZ] (row-major: pixel p = jj * SZ + ii) for theta [4, n]."""
    p = torch.arange(sz * sz, dtype=torch.float64)
    ii, jj = p % sz, torch.div(p, sz, rounding_mode="floor")
    x, y, n_ph, bg = (t[:, None] for t in theta)
    return bg + n_ph * _ex(ii, x, sigma) * _ex(jj, y, sigma)


def reference(rois: torch.Tensor, psf_sigma: float, iterations: int) -> tuple:
    n, sz, _ = rois.shape
    d = rois.double().reshape(n, sz * sz)
    p = torch.arange(sz * sz, dtype=torch.float64)
    ii, jj = p % sz, torch.div(p, sz, rounding_mode="floor")
    s = d.sum(1)
    x = (d * ii).sum(1) / s
    y = (d * jj).sum(1) / s
    bg = d.min(1).values.clamp_min(0.01)
    n_ph = (s - bg * sz * sz).clamp_min(1.0)
    maxjump = (1.0, 1.0, 100.0, 2.0)
    k0 = 1.0 / (math.sqrt(2.0 * math.pi) * psf_sigma)
    k1 = k0 / (psf_sigma * psf_sigma)
    for it in range(iterations):
        ex, ey = _ex(ii, x[:, None], psf_sigma), _ex(jj, y[:, None], psf_sigma)
        mu = bg[:, None] + n_ph[:, None] * ex * ey
        ax = torch.exp(-0.5 * ((ii + 0.5 - x[:, None]) / psf_sigma) ** 2)
        bx = torch.exp(-0.5 * ((ii - 0.5 - x[:, None]) / psf_sigma) ** 2)
        ay = torch.exp(-0.5 * ((jj + 0.5 - y[:, None]) / psf_sigma) ** 2)
        by = torch.exp(-0.5 * ((jj - 0.5 - y[:, None]) / psf_sigma) ** 2)
        d1x = -n_ph[:, None] * k0 * (ax - bx) * ey
        d2x = -n_ph[:, None] * k1 * ((ii + 0.5 - x[:, None]) * ax - (ii - 0.5 - x[:, None]) * bx) * ey
        d1y = -n_ph[:, None] * k0 * (ay - by) * ex
        d2y = -n_ph[:, None] * k1 * ((jj + 0.5 - y[:, None]) * ay - (jj - 0.5 - y[:, None]) * by) * ex
        d1n = ex * ey
        ok = mu > 1e-2
        cf = torch.where(ok, d / mu - 1.0, torch.zeros_like(mu)).clamp_max(1e4)
        df = torch.where(ok, d / (mu * mu), torch.zeros_like(mu)).clamp_max(1e4)
        steps = []
        for k, (d1, d2) in enumerate(((d1x, d2x), (d1y, d2y), (d1n, None), (None, None))):
            if d1 is None:
                num, den = cf.sum(1), -df.sum(1)
            else:
                num = (d1 * cf).sum(1)
                den = ((d2 * cf) if d2 is not None else 0.0) - d1 * d1 * df
                den = den.sum(1)
            steps.append((num / den).clamp(-maxjump[k], maxjump[k]))
        gn = 0.5 if it < 2 else 1.0
        x = x - steps[0]
        y = y - steps[1]
        n_ph = (n_ph - gn * steps[2]).clamp_min(1.0)
        bg = (bg - steps[3]).clamp_min(0.01)
    mu = bg[:, None] + n_ph[:, None] * _ex(ii, x[:, None], psf_sigma) * _ex(jj, y[:, None], psf_sigma)
    ll = torch.where(d > 0, d * torch.log(mu / d.clamp_min(1e-30)) - mu + d, -mu)
    ll = torch.where(mu > 0, ll, torch.zeros_like(ll)).sum(1)
    theta = torch.stack([x, y, n_ph, bg])
    return theta.to(rois.dtype), ll.to(rois.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["n_fits"] * s["SZ"] ** 2
    return {"bytes": 4 * px + 20 * s["n_fits"], "flops": 160 * px * (s["iterations"] + 1)}
