"""Mean-squares metric value and affine-parameter derivative (elastix AdvancedMeanSquares, full sampler)."""
import torch
import triton
import triton.language as tl

BR = 4


@triton.jit
def _component_sums(e, g, qx, qy, qz):
    # sum e * dM/dx_d * (x_j - c_j) for j = x, y, z and sum e * dM/dx_d over one tile
    h = e * g
    r = tl.sum(h, axis=1)
    return (tl.sum(tl.sum(h * qx[None, :], axis=1), axis=0), tl.sum(r * qy, axis=0),
            tl.sum(r * qz, axis=0), tl.sum(r, axis=0))


@triton.jit
def _msd_value_and_derivative(fixed, moving, grad, value, deriv, Z, Y, X, sx, sy, sz, qx0, qy0, qz0, inv_n,
                              BR: tl.constexpr, BX: tl.constexpr):
    plane = Z * Y * X
    cols = tl.arange(0, BX)
    col_ok = cols < X
    qx = qx0 + sx * cols.to(tl.float32)
    y_blocks = tl.cdiv(Y, BR)
    s_ee = 0.0
    s00 = 0.0
    s01 = 0.0
    s02 = 0.0
    s10 = 0.0
    s11 = 0.0
    s12 = 0.0
    s20 = 0.0
    s21 = 0.0
    s22 = 0.0
    t0 = 0.0
    t1 = 0.0
    t2 = 0.0
    # one program walks the whole volume, so it can scale and store the 13 results itself
    for blk in range(0, Z * y_blocks):
        z = blk // y_blocks
        y = (blk - z * y_blocks) * BR + tl.arange(0, BR)
        mask = (y < Y)[:, None] & col_ok[None, :]
        offs = (z * Y + y)[:, None] * X + cols[None, :]
        f = tl.load(fixed + offs, mask=mask, other=0.0)
        m = tl.load(moving + offs, mask=mask, other=0.0)
        e = m - f
        s_ee += tl.sum(tl.sum(e * e, axis=1), axis=0)
        qy = qy0 + sy * y.to(tl.float32)
        qz = qz0 + sz * z.to(tl.float32)
        a0, a1, a2, a3 = _component_sums(e, tl.load(grad + offs, mask=mask, other=0.0), qx, qy, qz)
        s00 += a0
        s01 += a1
        s02 += a2
        t0 += a3
        a0, a1, a2, a3 = _component_sums(e, tl.load(grad + plane + offs, mask=mask, other=0.0), qx, qy, qz)
        s10 += a0
        s11 += a1
        s12 += a2
        t1 += a3
        a0, a1, a2, a3 = _component_sums(e, tl.load(grad + 2 * plane + offs, mask=mask, other=0.0), qx, qy, qz)
        s20 += a0
        s21 += a1
        s22 += a2
        t2 += a3
    two_n = 2.0 * inv_n
    tl.store(value, s_ee * inv_n)
    tl.store(deriv + 0, s00 * two_n)
    tl.store(deriv + 1, s01 * two_n)
    tl.store(deriv + 2, s02 * two_n)
    tl.store(deriv + 3, s10 * two_n)
    tl.store(deriv + 4, s11 * two_n)
    tl.store(deriv + 5, s12 * two_n)
    tl.store(deriv + 6, s20 * two_n)
    tl.store(deriv + 7, s21 * two_n)
    tl.store(deriv + 8, s22 * two_n)
    tl.store(deriv + 9, t0 * two_n)
    tl.store(deriv + 10, t1 * two_n)
    tl.store(deriv + 11, t2 * two_n)


def run(fixed, moving, grad, spacing, origin, centre):
    Z, Y, X = fixed.shape
    value = torch.empty((1,), device=fixed.device, dtype=torch.float32)
    deriv = torch.empty((12,), device=fixed.device, dtype=torch.float32)
    q0 = [origin[j] - centre[j] for j in range(3)]
    _msd_value_and_derivative[(1,)](fixed, moving, grad, value, deriv, Z, Y, X, spacing[0], spacing[1],
                                    spacing[2], q0[0], q0[1], q0[2], 1.0 / fixed.numel(),
                                    BR=BR, BX=triton.next_power_of_2(X))
    return value, deriv
