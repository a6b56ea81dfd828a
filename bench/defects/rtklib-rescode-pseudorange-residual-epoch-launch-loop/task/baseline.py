"""Pseudorange residuals, design matrix and variances of single point positioning (RTKLIB rescode)."""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

CLIGHT = tl.constexpr(299792458.0)
OMGE = tl.constexpr(7.2921151467e-5)
RE2_WGS84 = tl.constexpr(6378137.0 * 6378137.0)
SIN_EL_MASK = tl.constexpr(0.25881904510252074)   # sin(15 deg)
VAR_CODE_IF = tl.constexpr(100.0 * 100.0 * 0.003 * 0.003 * 9.0)   # err[0]^2 err[1]^2 x 3^2 (iono-free)
VAR_CBIAS = tl.constexpr(0.3 * 0.3)
ERR_SAAS = tl.constexpr(0.3)
REL_HUMI = tl.constexpr(0.7)
BLOCK_R = 8


@triton.jit
def _rescode(rs, dts, prange, rr, pos, v_out, h_out, var_out, n_rows, n_sat,
             BLOCK_R: tl.constexpr, BLOCK_S: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    row_ok = rows < n_rows
    sats = tl.arange(0, BLOCK_S)

    # receiver iterate: ECEF, clock, geodetic; up vector and Saastamoinen zenith delay per row
    xr = tl.load(rr + rows * 4 + 0, mask=row_ok, other=0.0)
    yr = tl.load(rr + rows * 4 + 1, mask=row_ok, other=0.0)
    zr = tl.load(rr + rows * 4 + 2, mask=row_ok, other=0.0)
    dtr = tl.load(rr + rows * 4 + 3, mask=row_ok, other=0.0)
    lat = tl.load(pos + rows * 3 + 0, mask=row_ok, other=0.0)
    lon = tl.load(pos + rows * 3 + 1, mask=row_ok, other=0.0)
    hgt = tl.maximum(tl.load(pos + rows * 3 + 2, mask=row_ok, other=0.0), 0.0)
    up_x = tl.cos(lat) * tl.cos(lon)
    up_y = tl.cos(lat) * tl.sin(lon)
    up_z = tl.sin(lat)
    pres = 1013.25 * libdevice.pow(1.0 - 2.2557e-5 * hgt, tl.full([BLOCK_R], 5.2568, tl.float64))
    temp = 15.0 - 6.5e-3 * hgt + 273.16
    ew = 6.108 * REL_HUMI * tl.exp((17.15 * temp - 4684.0) / (temp - 38.45))
    ztd = 0.0022768 * pres / (1.0 - 0.00266 * tl.cos(2.0 * lat) - 0.00028 * hgt / 1e3) \
        + 0.002277 * (1255.0 / temp + 0.05) * ew

    idx = rows[:, None] * n_sat + sats[None, :]
    ok = row_ok[:, None] & (sats[None, :] < n_sat)
    xs = tl.load(rs + idx * 3 + 0, mask=ok, other=0.0)
    ys = tl.load(rs + idx * 3 + 1, mask=ok, other=0.0)
    zs = tl.load(rs + idx * 3 + 2, mask=ok, other=0.0)
    clk = tl.load(dts + idx, mask=ok, other=0.0)
    p = tl.load(prange + idx, mask=ok, other=0.0)

    # geometric range with Sagnac correction, line-of-sight unit vector, elevation
    dx = xs - xr[:, None]
    dy = ys - yr[:, None]
    dz = zs - zr[:, None]
    rho = tl.sqrt(dx * dx + dy * dy + dz * dz)
    ex = dx / rho
    ey = dy / rho
    ez = dz / rho
    rho += OMGE * (xs * yr[:, None] - ys * xr[:, None]) / CLIGHT
    sinel = ex * up_x[:, None] + ey * up_y[:, None] + ez * up_z[:, None]
    valid = ok & (p != 0.0) & (xs * xs + ys * ys + zs * zs >= RE2_WGS84) & (sinel >= SIN_EL_MASK)
    s = tl.where(valid, sinel, 1.0)

    v = p - (rho + dtr[:, None] - CLIGHT * clk + ztd[:, None] / s)
    vtrp = ERR_SAAS / (s + 0.1)
    var = VAR_CODE_IF * (1.0 + 1.0 / s) + VAR_CBIAS + vtrp * vtrp
    tl.store(v_out + idx, tl.where(valid, v, 0.0), mask=ok)
    tl.store(var_out + idx, tl.where(valid, var, 0.0), mask=ok)
    tl.store(h_out + idx * 4 + 0, tl.where(valid, -ex, 0.0), mask=ok)
    tl.store(h_out + idx * 4 + 1, tl.where(valid, -ey, 0.0), mask=ok)
    tl.store(h_out + idx * 4 + 2, tl.where(valid, -ez, 0.0), mask=ok)
    tl.store(h_out + idx * 4 + 3, tl.where(valid, 1.0, 0.0), mask=ok)


def run(rs: torch.Tensor, dts: torch.Tensor, P: torch.Tensor, rr: torch.Tensor, pos: torch.Tensor) -> tuple:
    n_ep, n_rcv, n_sat = P.shape
    v = torch.empty((n_ep, n_rcv, n_sat), device=P.device, dtype=torch.float64)
    H = torch.empty((n_ep, n_rcv, n_sat, 4), device=P.device, dtype=torch.float64)
    var = torch.empty((n_ep, n_rcv, n_sat), device=P.device, dtype=torch.float64)
    block_s = triton.next_power_of_2(n_sat)
    n_rows = n_ep * n_rcv   # every epoch x receiver row in one launch
    grid = (triton.cdiv(n_rows, BLOCK_R),)
    _rescode[grid](rs, dts, P, rr, pos, v, H, var, n_rows, n_sat,
                   BLOCK_R=BLOCK_R, BLOCK_S=block_s, num_warps=4)
    return v, H, var
