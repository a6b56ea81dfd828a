"""Kessler warm-rain microphysics, one rain sub-step, on MPAS [nCells, nVertLevels] state arrays."""
import torch
import triton
import triton.language as tl

_XK_INV = tl.constexpr(1.0 / 0.2875)      # 1 / kappa
_LV_CP = tl.constexpr(2.5e6 / 1004.5)     # lv / cp
_F5 = tl.constexpr(237.3 * 17.27 * 2.5e6 / 1004.5)
_VECTOR_CORES = 40


@triton.jit
def _pow(x, p):
    return tl.exp(p * tl.log(tl.maximum(x, 1e-30)))


@triton.jit
def _rain_substep(th, qv, qc, qr, rho, pk, z, qr_up, rho_up, z_up, rho_s, dz_top, dt0):
    qr = tl.maximum(qr, 0.0)
    qr_up = tl.maximum(qr_up, 0.0)
    r = 0.001 * rho
    r_up = 0.001 * rho_up
    # terminal velocity here and one level up, upstream sedimentation flux divergence
    velqr = 36.34 * tl.sqrt(rho_s / rho) * _pow(qr * r, 0.1364)
    vel_up = 36.34 * tl.sqrt(rho_s / rho_up) * _pow(qr_up * r_up, 0.1364)
    # above the top level qr_up = 0 (no inflow) and z_up = 0: the top layer is half a layer deep
    dz = tl.where(z_up > z, z_up - z, dz_top)
    sed = dt0 * (r_up * qr_up * vel_up - r * qr * velqr) / (r * dz)
    # autoconversion + accretion (KW 2.13)
    qrprod = qc - (qc - dt0 * tl.maximum(0.001 * (qc - 0.001), 0.0)) / (1.0 + dt0 * 2.2 * _pow(qr, 0.875))
    qc = tl.maximum(qc - qrprod, 0.0)
    qr = tl.maximum(qr + qrprod + sed, 0.0)
    # saturation mixing ratio (KW 2.11), evaporation (KW 2.14), adjustment (KW 3.10)
    pc = 3.8 / (_pow(pk, _XK_INV) * 1000.0)
    tk = pk * th
    qvs = pc * tl.exp(17.27 * (tk - 273.0) / (tk - 36.0))
    prod = (qv - qvs) / (1.0 + qvs * _F5 / ((tk - 36.0) * (tk - 36.0)))
    rq = r * qr
    ern = dt0 * (((1.6 + 124.9 * _pow(rq, 0.2046)) * _pow(rq, 0.525))
                 / (2550000.0 * pc / (3.8 * qvs) + 540000.0)) * (tl.maximum(qvs - qv, 0.0) / (r * qvs))
    ern = tl.minimum(tl.minimum(ern, tl.maximum(-prod - qc, 0.0)), qr)
    cond = tl.maximum(prod, -qc)
    th_n = th + _LV_CP / pk * (cond - ern)
    qv_n = tl.maximum(qv - cond + ern, 0.0)
    return th_n, qv_n, qc + cond, qr - ern


@triton.jit
def _kessler_column(theta, qv, qc, qr, rho, pk, z,
                    th_out, qv_out, qc_out, qr_out, precl, ncells, nlev, dt0,
                    BC: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lev = tl.arange(0, BL)[None, :]
    for blk in range(pid, tl.cdiv(ncells, BC), nprog):
        cells = blk * BC + tl.arange(0, BC)
        cm = cells < ncells
        base = cells * nlev
        col = base[:, None]
        m = cm[:, None] & (lev < nlev)
        mu = cm[:, None] & (lev + 1 < nlev)
        th = tl.load(theta + col + lev, mask=m, other=300.0)
        q_v = tl.load(qv + col + lev, mask=m, other=0.0)
        q_c = tl.load(qc + col + lev, mask=m, other=0.0)
        q_r = tl.load(qr + col + lev, mask=m, other=0.0)
        rh = tl.load(rho + col + lev, mask=m, other=1.0)
        p_k = tl.load(pk + col + lev, mask=m, other=1.0)
        zz = tl.load(z + col + lev, mask=m, other=0.0)
        qr_up = tl.load(qr + col + lev + 1, mask=mu, other=0.0)
        rho_up = tl.load(rho + col + lev + 1, mask=mu, other=1.0)
        z_up = tl.load(z + col + lev + 1, mask=mu, other=0.0)
        rho_s = tl.load(rho + base, mask=cm, other=1.0)
        qr_s = tl.maximum(tl.load(qr + base, mask=cm, other=0.0), 0.0)
        dz_top = 0.5 * (tl.load(z + base + nlev - 1, mask=cm, other=1.0)
                        - tl.load(z + base + nlev - 2, mask=cm, other=0.0))
        th_n, qv_n, qc_n, qr_n = _rain_substep(th, q_v, q_c, q_r, rh, p_k, zz, qr_up, rho_up, z_up,
                                               rho_s[:, None], dz_top[:, None], dt0)
        tl.store(th_out + col + lev, th_n, mask=m)
        tl.store(qv_out + col + lev, qv_n, mask=m)
        tl.store(qc_out + col + lev, qc_n, mask=m)
        tl.store(qr_out + col + lev, qr_n, mask=m)
        tl.store(precl + cells, rho_s * qr_s * 36.34 * _pow(0.001 * rho_s * qr_s, 0.1364) / 1000.0, mask=cm)


def run(theta, qv, qc, qr, rho, pk, z, dt0):
    ncells, nlev = theta.shape
    th_out, qv_out, qc_out, qr_out = (torch.empty_like(theta) for _ in range(4))
    precl = torch.empty((ncells,), device=theta.device, dtype=theta.dtype)
    BL = triton.next_power_of_2(nlev)
    BC = 8
    grid = (min(_VECTOR_CORES, triton.cdiv(ncells, BC)),)
    _kessler_column[grid](theta, qv, qc, qr, rho, pk, z, th_out, qv_out, qc_out, qr_out, precl,
                          ncells, nlev, dt0, BC=BC, BL=BL)
    return th_out, qv_out, qc_out, qr_out, precl
