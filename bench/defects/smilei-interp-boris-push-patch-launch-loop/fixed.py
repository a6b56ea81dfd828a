"""Smilei 2D3V particle step: Interpolator2D2Order (quadratic, Yee-staggered) + PusherBoris, all patches in one launch."""
import torch
import triton
import triton.language as tl

GHOST = 2
BLOCK = 256


@triton.jit
def _quad_weights(d):
    d2 = d * d
    return 0.5 * (d2 - d + 0.25), 0.75 - d2, 0.5 * (d2 + d + 0.25)


@triton.jit
def _interp3x3(f, ix, iy, wx0, wx1, wx2, wy0, wy1, wy2, stride_x, live):
    # f: one component; (ix, iy): storage index of the central node; y is contiguous
    c = f + ix * stride_x + iy
    lo = c - stride_x
    hi = c + stride_x
    r0 = wy0 * tl.load(lo - 1, mask=live, other=0.0) + wy1 * tl.load(lo, mask=live, other=0.0) \
        + wy2 * tl.load(lo + 1, mask=live, other=0.0)
    r1 = wy0 * tl.load(c - 1, mask=live, other=0.0) + wy1 * tl.load(c, mask=live, other=0.0) \
        + wy2 * tl.load(c + 1, mask=live, other=0.0)
    r2 = wy0 * tl.load(hi - 1, mask=live, other=0.0) + wy1 * tl.load(hi, mask=live, other=0.0) \
        + wy2 * tl.load(hi + 1, mask=live, other=0.0)
    return wx0 * r0 + wx1 * r1 + wx2 * r2


@triton.jit
def _interpolate_push(pos, mom, em, pos_out, mom_out, first, last, n_total,
                      dx_inv, dy_inv, dt, alpha, stride_c, stride_x,
                      GHOST: tl.constexpr, BLOCK: tl.constexpr):
    p = first + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = p < last
    x = tl.load(pos + p, mask=live, other=0.0)
    y = tl.load(pos + n_total + p, mask=live, other=0.0)
    px = tl.load(mom + p, mask=live, other=0.0)
    py = tl.load(mom + n_total + p, mask=live, other=0.0)
    pz = tl.load(mom + 2 * n_total + p, mask=live, other=0.0)

    # Interpolator2D2Order: primal node round(xpn), dual node round(xpn + 1/2)
    xpn = x * dx_inv
    ypn = y * dy_inv
    ipf = tl.floor(xpn + 0.5)
    idf = tl.floor(xpn + 1.0)
    jpf = tl.floor(ypn + 0.5)
    jdf = tl.floor(ypn + 1.0)
    xp0, xp1, xp2 = _quad_weights(xpn - ipf)
    xd0, xd1, xd2 = _quad_weights(xpn - idf + 0.5)
    yp0, yp1, yp2 = _quad_weights(ypn - jpf)
    yd0, yd1, yd2 = _quad_weights(ypn - jdf + 0.5)
    ip = ipf.to(tl.int32) + GHOST
    idd = idf.to(tl.int32) + GHOST
    jp = jpf.to(tl.int32) + GHOST
    jd = jdf.to(tl.int32) + GHOST
    ex = _interp3x3(em, idd, jp, xd0, xd1, xd2, yp0, yp1, yp2, stride_x, live)
    ey = _interp3x3(em + stride_c, ip, jd, xp0, xp1, xp2, yd0, yd1, yd2, stride_x, live)
    ez = _interp3x3(em + 2 * stride_c, ip, jp, xp0, xp1, xp2, yp0, yp1, yp2, stride_x, live)
    bx = _interp3x3(em + 3 * stride_c, ip, jd, xp0, xp1, xp2, yd0, yd1, yd2, stride_x, live)
    by = _interp3x3(em + 4 * stride_c, idd, jp, xd0, xd1, xd2, yp0, yp1, yp2, stride_x, live)
    bz = _interp3x3(em + 5 * stride_c, idd, jd, xd0, xd1, xd2, yd0, yd1, yd2, stride_x, live)

    # PusherBoris, alpha = q/m * dt/2
    umx = px + alpha * ex
    umy = py + alpha * ey
    umz = pz + alpha * ez
    inv_g = alpha / tl.sqrt(1.0 + umx * umx + umy * umy + umz * umz)
    tx = inv_g * bx
    ty = inv_g * by
    tz = inv_g * bz
    inv_det = 1.0 / (1.0 + tx * tx + ty * ty + tz * tz)
    upx = ((1.0 + tx * tx - ty * ty - tz * tz) * umx + 2.0 * (tx * ty + tz) * umy + 2.0 * (tz * tx - ty) * umz) * inv_det
    upy = (2.0 * (tx * ty - tz) * umx + (1.0 - tx * tx + ty * ty - tz * tz) * umy + 2.0 * (ty * tz + tx) * umz) * inv_det
    upz = (2.0 * (tz * tx + ty) * umx + 2.0 * (ty * tz - tx) * umy + (1.0 - tx * tx - ty * ty + tz * tz) * umz) * inv_det
    px = upx + alpha * ex
    py = upy + alpha * ey
    pz = upz + alpha * ez
    inv_gf = 1.0 / tl.sqrt(1.0 + px * px + py * py + pz * pz)
    tl.store(pos_out + p, x + dt * px * inv_gf, mask=live)
    tl.store(pos_out + n_total + p, y + dt * py * inv_gf, mask=live)
    tl.store(mom_out + p, px, mask=live)
    tl.store(mom_out + n_total + p, py, mask=live)
    tl.store(mom_out + 2 * n_total + p, pz, mask=live)


def run(pos, mom, em, patch_first, dx, dy, dt, q_over_m) -> tuple:
    n = pos.shape[1]
    pos_out = torch.empty_like(pos)
    mom_out = torch.empty_like(mom)
    # the fields are global arrays, so all patches' particles (stored back to back) go in one launch
    first, last = 0, n
    grid = (triton.cdiv(last - first, BLOCK),)
    _interpolate_push[grid](pos, mom, em, pos_out, mom_out, first, last, n,
                            1.0 / dx, 1.0 / dy, dt, 0.5 * q_over_m * dt, em.stride(0), em.stride(1),
                            GHOST=GHOST, BLOCK=BLOCK, num_warps=4)
    return pos_out, mom_out
