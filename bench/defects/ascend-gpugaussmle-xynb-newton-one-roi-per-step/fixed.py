"""GPUgaussMLE XYNB on Ascend: Newton-Raphson MLE fit of a pixel-integrated 2-D Gaussian to each ROI."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _mle_fit_xynb(rois, theta, loglik, n_fits, sigma, iterations,
                  SZ: tl.constexpr, BP: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p = tl.arange(0, BP)
    pmask = p < SZ * SZ
    valid = tl.where(pmask, 1.0, 0.0)[None, :]
    ii = (p % SZ).to(tl.float32)[None, :]
    jj = (p // SZ).to(tl.float32)[None, :]
    r2s = 0.7071067811865476 / sigma
    k0 = 0.3989422804014327 / sigma
    k1 = k0 / (sigma * sigma)
    h = -0.5 / (sigma * sigma)
    for blk in range(pid, tl.cdiv(n_fits, BR), nprog):
        f = blk * BR + tl.arange(0, BR)
        fmask = f < n_fits
        d = tl.load(rois + f[:, None] * (SZ * SZ) + p[None, :],
                    mask=fmask[:, None] & pmask[None, :], other=0.0)
        # initial values: centre of mass, ROI minimum, background-subtracted sum
        s = tl.sum(d, axis=1)
        x = tl.sum(d * ii, axis=1) / s
        y = tl.sum(d * jj, axis=1) / s
        bg = tl.maximum(tl.min(d + (1.0 - valid) * 1e30, axis=1), 0.01)
        nph = tl.maximum(s - bg * (SZ * SZ), 1.0)
        for it in range(iterations):
            ux = ii - x[:, None]
            uy = jj - y[:, None]
            ex = 0.5 * (tl.math.erf((ux + 0.5) * r2s) - tl.math.erf((ux - 0.5) * r2s))
            ey = 0.5 * (tl.math.erf((uy + 0.5) * r2s) - tl.math.erf((uy - 0.5) * r2s))
            ax = tl.exp(h * (ux + 0.5) * (ux + 0.5))
            bx = tl.exp(h * (ux - 0.5) * (ux - 0.5))
            ay = tl.exp(h * (uy + 0.5) * (uy + 0.5))
            by = tl.exp(h * (uy - 0.5) * (uy - 0.5))
            mu = bg[:, None] + nph[:, None] * ex * ey
            d1x = -nph[:, None] * k0 * (ax - bx) * ey
            d2x = -nph[:, None] * k1 * ((ux + 0.5) * ax - (ux - 0.5) * bx) * ey
            d1y = -nph[:, None] * k0 * (ay - by) * ex
            d2y = -nph[:, None] * k1 * ((uy + 0.5) * ay - (uy - 0.5) * by) * ex
            d1n = ex * ey
            ok = mu > 1e-2
            cf = tl.minimum(tl.where(ok, d / mu - 1.0, 0.0), 1e4) * valid
            df = tl.minimum(tl.where(ok, d / (mu * mu), 0.0), 1e4) * valid
            num_x = tl.sum(d1x * cf, axis=1)
            den_x = tl.sum(d2x * cf - d1x * d1x * df, axis=1)
            num_y = tl.sum(d1y * cf, axis=1)
            den_y = tl.sum(d2y * cf - d1y * d1y * df, axis=1)
            num_n = tl.sum(d1n * cf, axis=1)
            den_n = -tl.sum(d1n * d1n * df, axis=1)
            num_b = tl.sum(cf, axis=1)
            den_b = -tl.sum(df, axis=1)
            gn = tl.where(it < 2, 0.5, 1.0)
            x -= tl.minimum(tl.maximum(num_x / den_x, -1.0), 1.0)
            y -= tl.minimum(tl.maximum(num_y / den_y, -1.0), 1.0)
            nph = tl.maximum(nph - gn * tl.minimum(tl.maximum(num_n / den_n, -100.0), 100.0), 1.0)
            bg = tl.maximum(bg - tl.minimum(tl.maximum(num_b / den_b, -2.0), 2.0), 0.01)
        ux = ii - x[:, None]
        uy = jj - y[:, None]
        ex = 0.5 * (tl.math.erf((ux + 0.5) * r2s) - tl.math.erf((ux - 0.5) * r2s))
        ey = 0.5 * (tl.math.erf((uy + 0.5) * r2s) - tl.math.erf((uy - 0.5) * r2s))
        mu = bg[:, None] + nph[:, None] * ex * ey
        term = tl.where(d > 0.0, d * tl.log(mu / d) - mu + d, -mu)
        ll = tl.sum(tl.where(mu > 0.0, term, 0.0) * valid, axis=1)
        tl.store(theta + f, x, mask=fmask)
        tl.store(theta + n_fits + f, y, mask=fmask)
        tl.store(theta + 2 * n_fits + f, nph, mask=fmask)
        tl.store(theta + 3 * n_fits + f, bg, mask=fmask)
        tl.store(loglik + f, ll, mask=fmask)


def run(rois: torch.Tensor, psf_sigma: float, iterations: int) -> tuple:
    n_fits, sz, _ = rois.shape
    theta = torch.empty((4, n_fits), device=rois.device, dtype=torch.float32)
    loglik = torch.empty((n_fits,), device=rois.device, dtype=torch.float32)
    BP = triton.next_power_of_2(sz * sz)
    BR = 16
    grid = (min(_VECTOR_CORES, triton.cdiv(n_fits, BR)),)
    _mle_fit_xynb[grid](rois, theta, loglik, n_fits, psf_sigma, iterations, SZ=sz, BP=BP, BR=BR)
    return theta, loglik
