"""Unsupervised Wiener-Hunt (skimage unsupervised_wiener): Fourier-domain Gibbs sample + the two quad norms."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _wiener_gibbs_sample(y_re, y_im, h_re, h_im, lap, n1, n2, gamma, x_re, x_im, part,
                         N, n_blk, n_work, BLOCK: tl.constexpr):
    # work item t = (image b, block k of BLOCK frequencies); part is [images, 2, n_blk]
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for t in range(pid, n_work, nprog):
        b = t // n_blk
        k = t % n_blk
        f = k * BLOCK + tl.arange(0, BLOCK)
        m = f < N
        o = b * N + f
        gn = tl.load(gamma + 2 * b)
        gx = tl.load(gamma + 2 * b + 1)
        yr = tl.load(y_re + o, mask=m, other=0.0)
        yi = tl.load(y_im + o, mask=m, other=0.0)
        hr = tl.load(h_re + f, mask=m, other=1.0)  # tail lanes: precision = gn > 0, sample 0
        hi = tl.load(h_im + f, mask=m, other=0.0)
        lr = tl.load(lap + f, mask=m, other=0.0)
        e1 = tl.load(n1 + o, mask=m, other=0.0)
        e2 = tl.load(n2 + o, mask=m, other=0.0)
        # precision = gn |H|^2 + gx |L|^2;  x = gn conj(H) Y / precision + sqrt(0.5 / precision) (n1 + i n2)
        prec = gn * (hr * hr + hi * hi) + gx * lr * lr
        inv = 1.0 / prec
        s = tl.sqrt(0.5 * inv)
        wf = gn * inv
        xr = wf * (hr * yr + hi * yi) + s * e1
        xi = wf * (hr * yi - hi * yr) + s * e2
        # quad norms of Y - H x and L x
        rr = yr - (hr * xr - hi * xi)
        ri = yi - (hr * xi + hi * xr)
        e_lik = tl.sum(rr * rr + ri * ri, axis=0)
        e_pri = tl.sum(lr * lr * (xr * xr + xi * xi), axis=0)
        tl.store(x_re + o, xr, mask=m)
        tl.store(x_im + o, xi, mask=m)
        tl.store(part + (2 * b) * n_blk + k, e_lik)
        tl.store(part + (2 * b + 1) * n_blk + k, e_pri)


@triton.jit
def _sum_partials(part, energies, B, n_blk, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    comp = tl.arange(0, 2)
    k = tl.arange(0, BK)
    for b in range(pid, B, nprog):
        v = tl.load(part + (2 * b + comp[:, None]) * n_blk + k[None, :], mask=(k < n_blk)[None, :], other=0.0)
        tl.store(energies + 2 * b + comp, tl.sum(v, axis=1))


def run(y_re, y_im, h_re, h_im, lap, n1, n2, gamma) -> tuple:
    B, H, W = y_re.shape
    N = H * W
    BLOCK = 2048
    n_blk = triton.cdiv(N, BLOCK)
    x_re = torch.empty_like(y_re)
    x_im = torch.empty_like(y_im)
    part = torch.empty((B, 2, n_blk), device=y_re.device, dtype=torch.float32)
    energies = torch.empty((B, 2), device=y_re.device, dtype=y_re.dtype)
    n_work = B * n_blk
    _wiener_gibbs_sample[(min(_VECTOR_CORES, n_work),)](y_re, y_im, h_re, h_im, lap, n1, n2, gamma,
                                                        x_re, x_im, part, N, n_blk, n_work, BLOCK=BLOCK)
    _sum_partials[(min(_VECTOR_CORES, B),)](part, energies, B, n_blk, BK=triton.next_power_of_2(n_blk))
    return x_re, x_im, energies
