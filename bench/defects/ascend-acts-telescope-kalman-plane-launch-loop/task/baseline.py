"""Kalman-filter fit of straight tracks through a telescope of pixel planes (ACTS KalmanFitter, no field)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _predict_update(x, t, cxx, cxt, ctt, q, m, dz, var_hit):
    # one projection: transport over dz, scattering on the slope, 1-D hit update
    x = x + t * dz
    cxx = cxx + 2.0 * dz * cxt + dz * dz * ctt
    cxt = cxt + dz * ctt
    ctt = ctt + q
    r = m - x
    inv_s = 1.0 / (cxx + var_hit)
    k0 = cxx * inv_s
    k1 = cxt * inv_s
    x = x + k0 * r
    t = t + k1 * r
    ctt = ctt - k1 * cxt
    cxt = cxt - k0 * cxt
    cxx = cxx - k0 * cxx
    return x, t, cxx, cxt, ctt, r * r * inv_s


@triton.jit
def _kf_fit(seeds, mom, hits, z, fitted, cov, chi2, n, n_planes, var_hit, var_pos0, var_slope0, xx0,
            BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        ok = i < n
        p = tl.load(mom + i, mask=ok, other=1.0)
        x = tl.load(seeds + i, mask=ok, other=0.0)
        y = tl.load(seeds + n + i, mask=ok, other=0.0)
        tx = tl.load(seeds + 2 * n + i, mask=ok, other=0.0)
        ty = tl.load(seeds + 3 * n + i, mask=ok, other=0.0)
        cxx = tl.full([BLOCK], 1.0, tl.float32) * var_pos0
        cxt = tl.zeros([BLOCK], dtype=tl.float32)
        ctt = tl.full([BLOCK], 1.0, tl.float32) * var_slope0
        cyy = tl.full([BLOCK], 1.0, tl.float32) * var_pos0
        cyt = tl.zeros([BLOCK], dtype=tl.float32)
        cuu = tl.full([BLOCK], 1.0, tl.float32) * var_slope0
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        z_prev = 0.0
        for layer in range(n_planes):
            zl = tl.load(z + layer)
            dz = zl - z_prev
            mx = tl.load(hits + (2 * layer) * n + i, mask=ok, other=0.0)
            my = tl.load(hits + (2 * layer + 1) * n + i, mask=ok, other=0.0)
            # Highland multiple scattering in the material before this plane, at the current direction
            t2 = 1.0 + tx * tx + ty * ty
            big_x = xx0 * tl.sqrt(t2)
            theta0 = 0.0136 / p * tl.sqrt(big_x) * (1.0 + 0.038 * tl.log(big_x))
            th2 = theta0 * theta0 * t2
            x, tx, cxx, cxt, ctt, cx = _predict_update(x, tx, cxx, cxt, ctt, th2 * (1.0 + tx * tx), mx, dz, var_hit)
            y, ty, cyy, cyt, cuu, cy = _predict_update(y, ty, cyy, cyt, cuu, th2 * (1.0 + ty * ty), my, dz, var_hit)
            acc = acc + cx + cy
            z_prev = zl
        tl.store(fitted + i, x, mask=ok)
        tl.store(fitted + n + i, y, mask=ok)
        tl.store(fitted + 2 * n + i, tx, mask=ok)
        tl.store(fitted + 3 * n + i, ty, mask=ok)
        tl.store(cov + i, cxx, mask=ok)
        tl.store(cov + n + i, cxt, mask=ok)
        tl.store(cov + 2 * n + i, ctt, mask=ok)
        tl.store(cov + 3 * n + i, cyy, mask=ok)
        tl.store(cov + 4 * n + i, cyt, mask=ok)
        tl.store(cov + 5 * n + i, cuu, mask=ok)
        tl.store(chi2 + i, acc, mask=ok)


def run(seeds, mom, hits, z, var_hit, var_pos0, var_slope0, xx0):
    n = seeds.shape[1]
    n_planes = hits.shape[0]
    fitted = torch.empty((4, n), device=seeds.device, dtype=seeds.dtype)
    cov = torch.empty((6, n), device=seeds.device, dtype=seeds.dtype)
    chi2 = torch.empty((n,), device=seeds.device, dtype=seeds.dtype)
    BLOCK = 512
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _kf_fit[grid](seeds, mom, hits, z, fitted, cov, chi2, n, n_planes, var_hit, var_pos0, var_slope0, xx0,
                  BLOCK=BLOCK)
    return fitted, cov, chi2
