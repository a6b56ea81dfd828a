"""Open-Unmix EM post-filter, E-step: y_j = v_j R_j (sqrt(eps) I + sum_k v_k R_k)^-1 x per TF bin."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _cmul(ar, ai, br, bi):
    return ar * br - ai * bi, ar * bi + ai * br


@triton.jit
def _wiener_estep(x, v, R, y, n_bins, n_frames, n_tf, sqrt_eps, J: tl.constexpr, BLOCK: tl.constexpr):
    tf = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)    # BLOCK consecutive (window, frame, bin)
    ok = tf < n_tf
    f = tf % n_bins
    w = tf // (n_frames * n_bins)
    src = tl.arange(0, J)
    m2 = ok[:, None]
    vj = tl.load(v + tf[:, None] * J + src[None, :], mask=m2, other=0.0)
    rb = R + ((w * n_bins + f) * (8 * J))[:, None] + src[None, :]
    r00r = tl.load(rb + 0 * J, mask=m2, other=0.0)
    r00i = tl.load(rb + 1 * J, mask=m2, other=0.0)
    r01r = tl.load(rb + 2 * J, mask=m2, other=0.0)
    r01i = tl.load(rb + 3 * J, mask=m2, other=0.0)
    r10r = tl.load(rb + 4 * J, mask=m2, other=0.0)
    r10i = tl.load(rb + 5 * J, mask=m2, other=0.0)
    r11r = tl.load(rb + 6 * J, mask=m2, other=0.0)
    r11i = tl.load(rb + 7 * J, mask=m2, other=0.0)
    # mixture covariance
    c00r = sqrt_eps + tl.sum(vj * r00r, axis=1)
    c00i = tl.sum(vj * r00i, axis=1)
    c01r = tl.sum(vj * r01r, axis=1)
    c01i = tl.sum(vj * r01i, axis=1)
    c10r = tl.sum(vj * r10r, axis=1)
    c10i = tl.sum(vj * r10i, axis=1)
    c11r = sqrt_eps + tl.sum(vj * r11r, axis=1)
    c11i = tl.sum(vj * r11i, axis=1)
    # closed-form 2x2 inverse applied to the mixture: z = Cxx^-1 x
    pr, pi = _cmul(c00r, c00i, c11r, c11i)
    qr, qi = _cmul(c01r, c01i, c10r, c10i)
    dr = pr - qr
    di = pi - qi
    nd = dr * dr + di * di
    idr = dr / nd
    idi = -di / nd
    xb = x + tf * 4
    x0r = tl.load(xb + 0, mask=ok, other=0.0)
    x0i = tl.load(xb + 1, mask=ok, other=0.0)
    x1r = tl.load(xb + 2, mask=ok, other=0.0)
    x1i = tl.load(xb + 3, mask=ok, other=0.0)
    ar, ai = _cmul(c11r, c11i, x0r, x0i)
    br, bi = _cmul(c01r, c01i, x1r, x1i)
    z0r, z0i = _cmul(idr, idi, ar - br, ai - bi)
    ar, ai = _cmul(c00r, c00i, x1r, x1i)
    br, bi = _cmul(c10r, c10i, x0r, x0i)
    z1r, z1i = _cmul(idr, idi, ar - br, ai - bi)
    z0r = z0r[:, None]
    z0i = z0i[:, None]
    z1r = z1r[:, None]
    z1i = z1i[:, None]
    # y_j = v_j R_j z
    ar, ai = _cmul(r00r, r00i, z0r, z0i)
    br, bi = _cmul(r01r, r01i, z1r, z1i)
    y0r = vj * (ar + br)
    y0i = vj * (ai + bi)
    ar, ai = _cmul(r10r, r10i, z0r, z0i)
    br, bi = _cmul(r11r, r11i, z1r, z1i)
    y1r = vj * (ar + br)
    y1i = vj * (ai + bi)
    yb = y + tf[:, None] * (4 * J) + src[None, :]
    tl.store(yb + 0 * J, y0r, mask=m2)
    tl.store(yb + 1 * J, y0i, mask=m2)
    tl.store(yb + 2 * J, y1r, mask=m2)
    tl.store(yb + 3 * J, y1i, mask=m2)


def run(x: torch.Tensor, v: torch.Tensor, R: torch.Tensor, eps: float) -> torch.Tensor:
    n_win, n_frames, n_bins, n_src = v.shape
    n_tf = n_win * n_frames * n_bins
    y = torch.empty((n_win, n_frames, n_bins, 2, 2, n_src), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(n_tf, BLOCK),)
    _wiener_estep[grid](x, v, R, y, n_bins, n_frames, n_tf, eps ** 0.5, J=n_src, BLOCK=BLOCK, num_warps=4)
    return y
