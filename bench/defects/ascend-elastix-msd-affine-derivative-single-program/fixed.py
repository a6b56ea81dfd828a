"""Mean-squares metric value and affine-parameter derivative (elastix AdvancedMeanSquares, full sampler)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BR = 4
SUMS = 16  # 13 running sums per program (12 derivative sums, then sum e^2 / 2), padded


@triton.jit
def _component_sums(e, g, qx, qy, qz):
    # sum e * dM/dx_d * (x_j - c_j) for j = x, y, z and sum e * dM/dx_d over one tile
    h = e * g
    r = tl.sum(h, axis=1)
    return (tl.sum(tl.sum(h * qx[None, :], axis=1), axis=0), tl.sum(r * qy, axis=0),
            tl.sum(r * qz, axis=0), tl.sum(r, axis=0))


@triton.jit
def _msd_value_and_derivative(fixed, moving, grad, partials, Z, Y, X, sx, sy, sz, qx0, qy0, qz0,
                              BR: tl.constexpr, BX: tl.constexpr, SUMS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
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
    # every program walks its share of the row tiles; its 13 sums go to one partial row
    for blk in range(pid, Z * y_blocks, nprog):
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
    row = partials + pid * SUMS
    tl.store(row + 0, s00)
    tl.store(row + 1, s01)
    tl.store(row + 2, s02)
    tl.store(row + 3, s10)
    tl.store(row + 4, s11)
    tl.store(row + 5, s12)
    tl.store(row + 6, s20)
    tl.store(row + 7, s21)
    tl.store(row + 8, s22)
    tl.store(row + 9, t0)
    tl.store(row + 10, t1)
    tl.store(row + 11, t2)
    tl.store(row + 12, 0.5 * s_ee)  # halved: the common 2/N scale then gives the value's 1/N


@triton.jit
def _sum_partials(partials, n_partials, out, inv_n, BP: tl.constexpr, SUMS: tl.constexpr):
    p = tl.arange(0, BP)
    k = tl.arange(0, SUMS)
    tile = tl.load(partials + p[:, None] * SUMS + k[None, :], mask=(p < n_partials)[:, None] & (k < 13)[None, :],
                   other=0.0)
    tl.store(out + k, tl.sum(tile, axis=0) * (2.0 * inv_n), mask=k < 13)


def run(fixed, moving, grad, spacing, origin, centre):
    Z, Y, X = fixed.shape
    out = torch.empty((13,), device=fixed.device, dtype=torch.float32)  # 12 derivative entries, then the value
    q0 = [origin[j] - centre[j] for j in range(3)]
    n_prog = min(_VECTOR_CORES, Z * triton.cdiv(Y, BR))
    partials = torch.empty((n_prog, SUMS), device=fixed.device, dtype=torch.float32)
    _msd_value_and_derivative[(n_prog,)](fixed, moving, grad, partials, Z, Y, X, spacing[0], spacing[1],
                                         spacing[2], q0[0], q0[1], q0[2],
                                         BR=BR, BX=triton.next_power_of_2(X), SUMS=SUMS)
    _sum_partials[(1,)](partials, n_prog, out, 1.0 / fixed.numel(),
                        BP=triton.next_power_of_2(n_prog), SUMS=SUMS)
    return out[12:], out[:12]
