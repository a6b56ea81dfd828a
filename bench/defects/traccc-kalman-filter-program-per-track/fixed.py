"""Forward Kalman filter of track candidates on a telescope of planes: per plane a straight-line +
parabolic-bending transport of the 5 bound parameters and their covariance, then a gain-matrix update
with the 2-D measurement; returns the filtered parameters on the last plane and the chi2."""
import torch
import triton
import triton.language as tl

BLOCK_T = 32



@triton.jit
def _transport_update(y, z, ty, tz, qop,
                      c00, c01, c02, c03, c04, c11, c12, c13, c14, c22, c23, c24, c33, c34, c44,
                      chi2, dx, m0, m1, sigma2, theta0sq, kappa):
    # transport over dx: x = F x, C = F C F^T (F has a = dx, b = dx^2 kappa / 2, c = dx kappa)
    a = dx
    b = 0.5 * dx * dx * kappa
    c = dx * kappa
    y = y + a * ty + b * qop
    z = z + a * tz
    ty = ty + c * qop
    g00 = c00 + a * c02 + b * c04
    g01 = c01 + a * c12 + b * c14
    g02 = c02 + a * c22 + b * c24
    g03 = c03 + a * c23 + b * c34
    g04 = c04 + a * c24 + b * c44
    g11 = c11 + a * c13
    g12 = c12 + a * c23
    g13 = c13 + a * c33
    g14 = c14 + a * c34
    g22 = c22 + c * c24
    g23 = c23 + c * c34
    g24 = c24 + c * c44
    c00 = g00 + a * g02 + b * g04
    c01 = g01 + a * g03
    c02 = g02 + c * g04
    c03 = g03
    c04 = g04
    c11 = g11 + a * g13
    c12 = g12 + c * g14
    c13 = g13
    c14 = g14
    c22 = g22 + c * g24 + theta0sq
    c23 = g23
    c24 = g24
    c33 = c33 + theta0sq
    # gain-matrix update with the (y, z) measurement
    s00 = c00 + sigma2
    s01 = c01
    s11 = c11 + sigma2
    inv_det = 1.0 / (s00 * s11 - s01 * s01)
    r0 = m0 - y
    r1 = m1 - z
    chi2 = chi2 + (r0 * r0 * s11 - 2.0 * r0 * r1 * s01 + r1 * r1 * s00) * inv_det
    k00 = (c00 * s11 - c01 * s01) * inv_det
    k01 = (c01 * s00 - c00 * s01) * inv_det
    k10 = (c01 * s11 - c11 * s01) * inv_det
    k11 = (c11 * s00 - c01 * s01) * inv_det
    k20 = (c02 * s11 - c12 * s01) * inv_det
    k21 = (c12 * s00 - c02 * s01) * inv_det
    k30 = (c03 * s11 - c13 * s01) * inv_det
    k31 = (c13 * s00 - c03 * s01) * inv_det
    k40 = (c04 * s11 - c14 * s01) * inv_det
    k41 = (c14 * s00 - c04 * s01) * inv_det
    y = y + k00 * r0 + k01 * r1
    z = z + k10 * r0 + k11 * r1
    ty = ty + k20 * r0 + k21 * r1
    tz = tz + k30 * r0 + k31 * r1
    qop = qop + k40 * r0 + k41 * r1
    n00 = c00 - k00 * c00 - k01 * c01
    n01 = c01 - k00 * c01 - k01 * c11
    n02 = c02 - k00 * c02 - k01 * c12
    n03 = c03 - k00 * c03 - k01 * c13
    n04 = c04 - k00 * c04 - k01 * c14
    n11 = c11 - k10 * c01 - k11 * c11
    n12 = c12 - k10 * c02 - k11 * c12
    n13 = c13 - k10 * c03 - k11 * c13
    n14 = c14 - k10 * c04 - k11 * c14
    n22 = c22 - k20 * c02 - k21 * c12
    n23 = c23 - k20 * c03 - k21 * c13
    n24 = c24 - k20 * c04 - k21 * c14
    n33 = c33 - k30 * c03 - k31 * c13
    n34 = c34 - k30 * c04 - k31 * c14
    n44 = c44 - k40 * c04 - k41 * c14
    return (y, z, ty, tz, qop, n00, n01, n02, n03, n04, n11, n12, n13, n14, n22, n23, n24, n33, n34, n44, chi2)


@triton.jit
def _kalman_filter(meas, plane_x, seed, seed_var, fitted, chi2_out, n_tracks, n_planes, sigma2, theta0sq, kappa,
                   BLOCK_T: tl.constexpr):
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    ok = t < n_tracks
    y = tl.load(seed + t * 5 + 0, mask=ok, other=0.0)
    z = tl.load(seed + t * 5 + 1, mask=ok, other=0.0)
    ty = tl.load(seed + t * 5 + 2, mask=ok, other=0.0)
    tz = tl.load(seed + t * 5 + 3, mask=ok, other=0.0)
    qop = tl.load(seed + t * 5 + 4, mask=ok, other=0.0)
    zero = y * 0.0
    c00 = zero + tl.load(seed_var + 0)
    c11 = zero + tl.load(seed_var + 1)
    c22 = zero + tl.load(seed_var + 2)
    c33 = zero + tl.load(seed_var + 3)
    c44 = zero + tl.load(seed_var + 4)
    c01 = zero
    c02 = zero
    c03 = zero
    c04 = zero
    c12 = zero
    c13 = zero
    c14 = zero
    c23 = zero
    c24 = zero
    c34 = zero
    chi2 = zero
    x_prev = tl.load(plane_x) * 0.0
    for s in range(n_planes):
        x_s = tl.load(plane_x + s)
        m0 = tl.load(meas + (t * n_planes + s) * 2, mask=ok, other=0.0)
        m1 = tl.load(meas + (t * n_planes + s) * 2 + 1, mask=ok, other=0.0)
        (y, z, ty, tz, qop, c00, c01, c02, c03, c04, c11, c12, c13, c14, c22, c23, c24, c33, c34, c44,
         chi2) = _transport_update(y, z, ty, tz, qop,
                                   c00, c01, c02, c03, c04, c11, c12, c13, c14, c22, c23, c24, c33, c34, c44,
                                   chi2, x_s - x_prev, m0, m1, sigma2, theta0sq, kappa)
        x_prev = x_s
    tl.store(fitted + t * 5 + 0, y, mask=ok)
    tl.store(fitted + t * 5 + 1, z, mask=ok)
    tl.store(fitted + t * 5 + 2, ty, mask=ok)
    tl.store(fitted + t * 5 + 3, tz, mask=ok)
    tl.store(fitted + t * 5 + 4, qop, mask=ok)
    tl.store(chi2_out + t, chi2, mask=ok)


def run(meas, plane_x, seed, seed_var, sigma2, theta0sq, kappa):
    n_tracks, n_planes = meas.shape[0], meas.shape[1]
    params = torch.empty(n_tracks, 5, device=meas.device, dtype=torch.float32)
    chi2 = torch.empty(n_tracks, device=meas.device, dtype=torch.float32)
    # one track candidate per lane, BLOCK_T tracks per program
    grid = (triton.cdiv(n_tracks, BLOCK_T),)
    _kalman_filter[grid](meas, plane_x, seed, seed_var, params, chi2, n_tracks, n_planes,
                         sigma2, theta0sq, kappa, BLOCK_T=BLOCK_T, num_warps=1)
    return params, chi2
