"""Satellite positions and clocks from broadcast ephemerides (RTKLIB eph2pos) for an observation list."""
import torch
import triton
import triton.language as tl

CLIGHT = tl.constexpr(299792458.0)
MU_GPS = tl.constexpr(3.9860050e14)
MU_GAL = tl.constexpr(3.986004418e14)
MU_CMP = tl.constexpr(3.986004418e14)
OMGE_GPS = tl.constexpr(7.2921151467e-5)
OMGE_GAL = tl.constexpr(7.2921151467e-5)
OMGE_CMP = tl.constexpr(7.292115e-5)
MAX_ITER_KEPLER = tl.constexpr(30)
NFIELD = tl.constexpr(24)
BLOCK = 128


@triton.jit
def _eph2pos(obs_time, obs_eph, eph, rs_out, dts_out, n_obs, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_obs
    t = tl.load(obs_time + offs, mask=ok, other=0.0)
    rec = eph + tl.load(obs_eph + offs, mask=ok, other=0) * NFIELD
    A = tl.load(rec + 0, mask=ok, other=1.0)
    e = tl.load(rec + 1, mask=ok, other=0.0)
    i0 = tl.load(rec + 2, mask=ok, other=0.0)
    OMG0 = tl.load(rec + 3, mask=ok, other=0.0)
    omg = tl.load(rec + 4, mask=ok, other=0.0)
    M0 = tl.load(rec + 5, mask=ok, other=0.0)
    deln = tl.load(rec + 6, mask=ok, other=0.0)
    OMGd = tl.load(rec + 7, mask=ok, other=0.0)
    idot = tl.load(rec + 8, mask=ok, other=0.0)
    crc = tl.load(rec + 9, mask=ok, other=0.0)
    crs = tl.load(rec + 10, mask=ok, other=0.0)
    cuc = tl.load(rec + 11, mask=ok, other=0.0)
    cus = tl.load(rec + 12, mask=ok, other=0.0)
    cic = tl.load(rec + 13, mask=ok, other=0.0)
    cis = tl.load(rec + 14, mask=ok, other=0.0)
    toe = tl.load(rec + 15, mask=ok, other=0.0)
    toes = tl.load(rec + 16, mask=ok, other=0.0)
    toc = tl.load(rec + 17, mask=ok, other=0.0)
    f0 = tl.load(rec + 18, mask=ok, other=0.0)
    f1 = tl.load(rec + 19, mask=ok, other=0.0)
    f2 = tl.load(rec + 20, mask=ok, other=0.0)
    sys = tl.load(rec + 21, mask=ok, other=0.0)
    zero = tl.zeros_like(t)   # fp64 operands keep the constants in double precision
    mu = tl.where(sys == 1.0, zero + MU_GAL, tl.where(sys == 2.0, zero + MU_CMP, zero + MU_GPS))
    omge = tl.where(sys == 1.0, zero + OMGE_GAL, tl.where(sys == 2.0, zero + OMGE_CMP, zero + OMGE_GPS))

    # mean anomaly and Kepler's equation by Newton's method
    tk = t - toe
    M = M0 + (tl.sqrt(mu / (A * A * A)) + deln) * tk
    E = M
    for _ in range(MAX_ITER_KEPLER):
        E -= (E - e * tl.sin(E) - M) / (1.0 - e * tl.cos(E))
    sinE = tl.sin(E)
    cosE = tl.cos(E)

    # argument of latitude from the true anomaly (atan2 expanded into its sine and cosine)
    den = 1.0 - e * cosE
    sin_nu = tl.sqrt(1.0 - e * e) * sinE / den
    cos_nu = (cosE - e) / den
    so = tl.sin(omg)
    co = tl.cos(omg)
    su = sin_nu * co + cos_nu * so
    cu = cos_nu * co - sin_nu * so
    sin2u = 2.0 * su * cu
    cos2u = cu * cu - su * su
    du = cus * sin2u + cuc * cos2u
    r = A * den + crs * sin2u + crc * cos2u
    inc = i0 + idot * tk + cis * sin2u + cic * cos2u
    sdu = tl.sin(du)
    cdu = tl.cos(du)
    x = r * (cu * cdu - su * sdu)
    y = r * (su * cdu + cu * sdu)
    cosi = tl.cos(inc)

    O = OMG0 + (OMGd - omge) * tk - omge * toes
    sinO = tl.sin(O)
    cosO = tl.cos(O)
    tl.store(rs_out + 3 * offs, x * cosO - y * cosi * sinO, mask=ok)
    tl.store(rs_out + 3 * offs + 1, x * sinO + y * cosi * cosO, mask=ok)
    tl.store(rs_out + 3 * offs + 2, y * tl.sin(inc), mask=ok)

    # clock polynomial and relativistic correction
    tc = t - toc
    dts = f0 + f1 * tc + f2 * tc * tc - 2.0 * tl.sqrt(mu * A) * e * sinE / (CLIGHT * CLIGHT)
    tl.store(dts_out + offs, dts, mask=ok)


def run(obs_time: torch.Tensor, obs_eph: torch.Tensor, eph: torch.Tensor) -> tuple:
    n = obs_time.shape[0]
    rs = torch.empty((n, 3), device=obs_time.device, dtype=torch.float64)
    dts = torch.empty(n, device=obs_time.device, dtype=torch.float64)
    _eph2pos[(triton.cdiv(n, BLOCK),)](obs_time, obs_eph, eph, rs, dts, n, BLOCK=BLOCK, num_warps=4)
    return rs, dts
