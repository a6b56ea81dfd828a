"""Open-Unmix EM post-filter, E-step: y_j = v_j R_j (sqrt(eps) I + sum_k v_k R_k)^-1 x per TF bin."""
import torch
import triton
import triton.language as tl


@triton.jit
def _cmul(ar, ai, br, bi):
    return ar * br - ai * bi, ar * bi + ai * br


@triton.jit
def _wiener_estep(x, v, R, y, n_bins, n_frames, sqrt_eps, J: tl.constexpr):
    tf = tl.program_id(0)                      # one (window, frame, bin)
    f = tf % n_bins
    w = tf // (n_frames * n_bins)
    src = tl.arange(0, J)
    vj = tl.load(v + tf * J + src)
    rb = R + (w * n_bins + f) * (8 * J) + src
    r00r = tl.load(rb + 0 * J)
    r00i = tl.load(rb + 1 * J)
    r01r = tl.load(rb + 2 * J)
    r01i = tl.load(rb + 3 * J)
    r10r = tl.load(rb + 4 * J)
    r10i = tl.load(rb + 5 * J)
    r11r = tl.load(rb + 6 * J)
    r11i = tl.load(rb + 7 * J)
    # mixture covariance
    c00r = sqrt_eps + tl.sum(vj * r00r, axis=0)
    c00i = tl.sum(vj * r00i, axis=0)
    c01r = tl.sum(vj * r01r, axis=0)
    c01i = tl.sum(vj * r01i, axis=0)
    c10r = tl.sum(vj * r10r, axis=0)
    c10i = tl.sum(vj * r10i, axis=0)
    c11r = sqrt_eps + tl.sum(vj * r11r, axis=0)
    c11i = tl.sum(vj * r11i, axis=0)
    # closed-form 2x2 inverse applied to the mixture: z = Cxx^-1 x
    pr, pi = _cmul(c00r, c00i, c11r, c11i)
    qr, qi = _cmul(c01r, c01i, c10r, c10i)
    dr = pr - qr
    di = pi - qi
    nd = dr * dr + di * di
    idr = dr / nd
    idi = -di / nd
    xb = x + tf * 4
    x0r = tl.load(xb + 0)
    x0i = tl.load(xb + 1)
    x1r = tl.load(xb + 2)
    x1i = tl.load(xb + 3)
    ar, ai = _cmul(c11r, c11i, x0r, x0i)
    br, bi = _cmul(c01r, c01i, x1r, x1i)
    z0r, z0i = _cmul(idr, idi, ar - br, ai - bi)
    ar, ai = _cmul(c00r, c00i, x1r, x1i)
    br, bi = _cmul(c10r, c10i, x0r, x0i)
    z1r, z1i = _cmul(idr, idi, ar - br, ai - bi)
    # y_j = v_j R_j z
    ar, ai = _cmul(r00r, r00i, z0r, z0i)
    br, bi = _cmul(r01r, r01i, z1r, z1i)
    y0r = vj * (ar + br)
    y0i = vj * (ai + bi)
    ar, ai = _cmul(r10r, r10i, z0r, z0i)
    br, bi = _cmul(r11r, r11i, z1r, z1i)
    y1r = vj * (ar + br)
    y1i = vj * (ai + bi)
    yb = y + tf * (4 * J) + src
    tl.store(yb + 0 * J, y0r)
    tl.store(yb + 1 * J, y0i)
    tl.store(yb + 2 * J, y1r)
    tl.store(yb + 3 * J, y1i)


def run(x: torch.Tensor, v: torch.Tensor, R: torch.Tensor, eps: float) -> torch.Tensor:
    n_win, n_frames, n_bins, n_src = v.shape
    y = torch.empty((n_win, n_frames, n_bins, 2, 2, n_src), device=x.device, dtype=x.dtype)
    grid = (n_win * n_frames * n_bins,)
    _wiener_estep[grid](x, v, R, y, n_bins, n_frames, eps ** 0.5, J=n_src, num_warps=4)
    return y
