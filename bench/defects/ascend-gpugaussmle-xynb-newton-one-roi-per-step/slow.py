"""GPUgaussMLE XYNB on Ascend: Newton-Raphson MLE fit of a pixel-integrated 2-D Gaussian to each ROI."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _mle_fit_xynb(rois, theta, loglik, n_fits, sigma, iterations,
                  SZ: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    p = tl.arange(0, BP)
    pmask = p < SZ * SZ
    valid = tl.where(pmask, 1.0, 0.0)
    ii = (p % SZ).to(tl.float32)
    jj = (p // SZ).to(tl.float32)
    r2s = 0.7071067811865476 / sigma
    k0 = 0.3989422804014327 / sigma
    k1 = k0 / (sigma * sigma)
    h = -0.5 / (sigma * sigma)
    for f in range(pid, n_fits, nprog):
        d = tl.load(rois + f * (SZ * SZ) + p, mask=pmask, other=0.0)
        # initial values: centre of mass, ROI minimum, background-subtracted sum
        s = tl.sum(d, axis=0)
        x = tl.sum(d * ii, axis=0) / s
        y = tl.sum(d * jj, axis=0) / s
        bg = tl.maximum(tl.min(d + (1.0 - valid) * 1e30, axis=0), 0.01)
        nph = tl.maximum(s - bg * (SZ * SZ), 1.0)
        for it in range(iterations):
            ux = ii - x
            uy = jj - y
            ex = 0.5 * (tl.math.erf((ux + 0.5) * r2s) - tl.math.erf((ux - 0.5) * r2s))
            ey = 0.5 * (tl.math.erf((uy + 0.5) * r2s) - tl.math.erf((uy - 0.5) * r2s))
            ax = tl.exp(h * (ux + 0.5) * (ux + 0.5))
            bx = tl.exp(h * (ux - 0.5) * (ux - 0.5))
            ay = tl.exp(h * (uy + 0.5) * (uy + 0.5))
            by = tl.exp(h * (uy - 0.5) * (uy - 0.5))
            mu = bg + nph * ex * ey
            d1x = -nph * k0 * (ax - bx) * ey
            d2x = -nph * k1 * ((ux + 0.5) * ax - (ux - 0.5) * bx) * ey
            d1y = -nph * k0 * (ay - by) * ex
            d2y = -nph * k1 * ((uy + 0.5) * ay - (uy - 0.5) * by) * ex
            d1n = ex * ey
            ok = mu > 1e-2
            cf = tl.minimum(tl.where(ok, d / mu - 1.0, 0.0), 1e4) * valid
            df = tl.minimum(tl.where(ok, d / (mu * mu), 0.0), 1e4) * valid
            num_x = tl.sum(d1x * cf, axis=0)
            den_x = tl.sum(d2x * cf - d1x * d1x * df, axis=0)
            num_y = tl.sum(d1y * cf, axis=0)
            den_y = tl.sum(d2y * cf - d1y * d1y * df, axis=0)
            num_n = tl.sum(d1n * cf, axis=0)
            den_n = -tl.sum(d1n * d1n * df, axis=0)
            num_b = tl.sum(cf, axis=0)
            den_b = -tl.sum(df, axis=0)
            gn = tl.where(it < 2, 0.5, 1.0)
            x -= tl.minimum(tl.maximum(num_x / den_x, -1.0), 1.0)
            y -= tl.minimum(tl.maximum(num_y / den_y, -1.0), 1.0)
            nph = tl.maximum(nph - gn * tl.minimum(tl.maximum(num_n / den_n, -100.0), 100.0), 1.0)
            bg = tl.maximum(bg - tl.minimum(tl.maximum(num_b / den_b, -2.0), 2.0), 0.01)
        ux = ii - x
        uy = jj - y
        ex = 0.5 * (tl.math.erf((ux + 0.5) * r2s) - tl.math.erf((ux - 0.5) * r2s))
        ey = 0.5 * (tl.math.erf((uy + 0.5) * r2s) - tl.math.erf((uy - 0.5) * r2s))
        mu = bg + nph * ex * ey
        term = tl.where(d > 0.0, d * tl.log(mu / d) - mu + d, -mu)
        ll = tl.sum(tl.where(mu > 0.0, term, 0.0) * valid, axis=0)
        tl.store(theta + f, x)
        tl.store(theta + n_fits + f, y)
        tl.store(theta + 2 * n_fits + f, nph)
        tl.store(theta + 3 * n_fits + f, bg)
        tl.store(loglik + f, ll)


def run(rois: torch.Tensor, psf_sigma: float, iterations: int) -> tuple:
    n_fits, sz, _ = rois.shape
    theta = torch.empty((4, n_fits), device=rois.device, dtype=torch.float32)
    loglik = torch.empty((n_fits,), device=rois.device, dtype=torch.float32)
    BP = triton.next_power_of_2(sz * sz)
    grid = (min(_VECTOR_CORES, n_fits),)
    _mle_fit_xynb[grid](rois, theta, loglik, n_fits, psf_sigma, iterations, SZ=sz, BP=BP)
    return theta, loglik
