"""PBE exchange-correlation (libxc gga_x_pbe + gga_c_pbe, closed shell) on fp32 grid points, eval_xc_eff form."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 1024

KAPPA = tl.constexpr(0.804)
MU = tl.constexpr(0.2195149727645171)
BETA = tl.constexpr(0.06672455060314922)
GAMMA = tl.constexpr((1.0 - math.log(2.0)) / math.pi ** 2)
CX = tl.constexpr(0.75 * (3.0 / math.pi) ** (1.0 / 3.0))              # -eps_x^unif / n^(1/3)
S2_FAC = tl.constexpr(1.0 / (4.0 * (3.0 * math.pi ** 2) ** (2.0 / 3.0)))  # s^2 = S2_FAC sigma / n^(8/3)
T2_FAC = tl.constexpr(math.pi / (16.0 * (3.0 * math.pi ** 2) ** (1.0 / 3.0)))  # t^2 = T2_FAC sigma / n^(7/3)
RS_FAC = tl.constexpr((3.0 / (4.0 * math.pi)) ** (1.0 / 3.0))         # r_s = RS_FAC / n^(1/3)
PW_A = tl.constexpr(0.0310907)
PW_A1 = tl.constexpr(0.21370)
PW_B1 = tl.constexpr(7.5957)
PW_B2 = tl.constexpr(3.5876)
PW_B3 = tl.constexpr(1.6382)
PW_B4 = tl.constexpr(0.49294)
DENS_THRESHOLD = tl.constexpr(1e-10)


@triton.jit
def _pbe_xc(rho, exc, vxc, n_points, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_points
    n = tl.load(rho + offs, mask=ok, other=1.0)
    gx = tl.load(rho + n_points + offs, mask=ok, other=0.0)
    gy = tl.load(rho + 2 * n_points + offs, mask=ok, other=0.0)
    gz = tl.load(rho + 3 * n_points + offs, mask=ok, other=0.0)
    dense = n > DENS_THRESHOLD
    n = tl.where(dense, n, 1.0)
    sigma = tl.where(dense, gx * gx + gy * gy + gz * gz, 0.0)

    n13 = tl.exp(tl.log(n) * (1.0 / 3.0))
    n43 = n * n13
    # exchange: e_x = -CX n^(4/3) F(s^2)
    s2_per_sigma = S2_FAC / (n43 * n43)
    s2 = s2_per_sigma * sigma
    den = KAPPA + MU * s2
    fx = 1.0 + KAPPA - KAPPA * KAPPA / den
    dfx = KAPPA * KAPPA * MU / (den * den)
    eps_x = -CX * n13 * fx
    vrho_x = -(4.0 / 3.0) * CX * n13 * (fx - 2.0 * s2 * dfx)
    vsig_x = -CX * n43 * dfx * s2_per_sigma
    # PW92 correlation
    rs = RS_FAC / n13
    srs = tl.sqrt(rs)
    q0 = -2.0 * PW_A * (1.0 + PW_A1 * rs)
    q1 = 2.0 * PW_A * srs * (PW_B1 + srs * (PW_B2 + srs * (PW_B3 + srs * PW_B4)))
    dq1 = PW_A * (PW_B1 / srs + 2.0 * PW_B2 + 3.0 * PW_B3 * srs + 4.0 * PW_B4 * rs)
    lg = tl.log(1.0 + 1.0 / q1)
    eps_c = q0 * lg
    deps_drs = -2.0 * PW_A * PW_A1 * lg - q0 * dq1 / (q1 * (1.0 + q1))
    deps_dn = -rs / (3.0 * n) * deps_drs
    # PBE gradient correction H(r_s, t)
    t2_per_sigma = T2_FAC / (n43 * n)
    t2 = t2_per_sigma * sigma
    e = tl.exp(-eps_c / GAMMA)
    a = (BETA / GAMMA) / (e - 1.0)
    at2 = a * t2
    num = 1.0 + at2
    dd = 1.0 + at2 + at2 * at2
    q = (BETA / GAMMA) * t2 * num / dd
    h = GAMMA * tl.log(1.0 + q)
    dg = -at2 * (2.0 + at2) / (dd * dd)
    dq_dt2 = (BETA / GAMMA) * (num / dd + at2 * dg)
    dq_da = (BETA / GAMMA) * t2 * t2 * dg
    da_deps = a * a * e / BETA
    pref = GAMMA / (1.0 + q)
    dh_dn = pref * (dq_dt2 * (-7.0 / 3.0) * t2 / n + dq_da * da_deps * deps_dn)
    dh_dsig = pref * dq_dt2 * t2_per_sigma

    eps = eps_x + eps_c + h
    vrho = vrho_x + eps_c + h + n * (deps_dn + dh_dn)
    vsig2 = 2.0 * (vsig_x + n * dh_dsig)
    tl.store(exc + offs, tl.where(dense, eps, 0.0), mask=ok)
    tl.store(vxc + offs, tl.where(dense, vrho, 0.0), mask=ok)
    tl.store(vxc + n_points + offs, tl.where(dense, vsig2 * gx, 0.0), mask=ok)
    tl.store(vxc + 2 * n_points + offs, tl.where(dense, vsig2 * gy, 0.0), mask=ok)
    tl.store(vxc + 3 * n_points + offs, tl.where(dense, vsig2 * gz, 0.0), mask=ok)


def run(rho: torch.Tensor) -> tuple:
    n_points = rho.shape[1]
    exc = torch.empty(n_points, device=rho.device, dtype=rho.dtype)
    vxc = torch.empty(4, n_points, device=rho.device, dtype=rho.dtype)
    _pbe_xc[(triton.cdiv(n_points, BLOCK),)](rho, exc, vxc, n_points, BLOCK=BLOCK, num_warps=4)
    return exc, vxc
