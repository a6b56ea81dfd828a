"""Pseudorange residuals and design matrix of RTKLIB's single point positioning (pntpos.c rescode()).

For every epoch e, receiver r (the current least-squares iterate: ECEF rr = (x, y, z), clock bias
dtr in m, and its geodetic position pos = (lat, lon, h)) and satellite slot s (ECEF position rs at
transmission time, clock bias dts in s, iono-free pseudorange P in m, 0.0 = no observation):

    geodist  : d = rs - rr, rho = |d|, e = d / rho, rho += OMGE (xs yr - ys xr) / CLIGHT (Sagnac)
    satazel  : sin(el) = e . up(lat, lon)
    tropcorr : Saastamoinen, standard atmosphere, humidity 0.7, mapped by 1 / sin(el)
    v   = P - (rho + dtr - CLIGHT dts + dtrp)
    H   = [-e_x, -e_y, -e_z, 1]
    var = varerr(el) (err = 100, 0.003, 0.003 m, x 3^2 for the iono-free combination)
          + ERR_CBIAS^2 + (ERR_SAAS / (sin(el) + 0.1))^2

A slot is rejected (v = 0, H = 0, var = 0) without an observation, without a satellite position
(|rs| < RE_WGS84) or below the 15 degree elevation mask. Returns (v [E,R,S], H [E,R,S,4], var [E,R,S]) fp64.
"""
import math

import torch

CLIGHT = 299792458.0
OMGE = 7.2921151467e-5
RE_WGS84 = 6378137.0
FE_WGS84 = 1.0 / 298.257223563
EL_MASK = 15.0 * math.pi / 180.0
ERR_CBIAS = 0.3
ERR_SAAS = 0.3
REL_HUMI = 0.7

META = {
    "name": "spp_code_residuals",
    "level": 2,
    "category": "gnss",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-6, "rtol": 1e-9}},
    "sizes": {
        "small": {"epochs": 3, "rcv": 4, "sats": 12},
        "ragged": {"epochs": 5, "rcv": 3, "sats": 13},
        "large": {"epochs": 2880, "rcv": 64, "sats": 48},
    },
    "baseline_notes": "One launch over all epoch x receiver rows: each program takes 8 rows x the padded "
                      "satellite axis (BLOCK_S = next_power_of_2(S)), computes the per-row up vector and "
                      "Saastamoinen zenith delays once per row and the geometry, residual, design-matrix row "
                      "and variance per satellite in fp64; 4 warps, no autotune.",
    "deterministic": True,
}


def _pos2ecef(lat, lon, h):
    e2 = FE_WGS84 * (2.0 - FE_WGS84)
    v = RE_WGS84 / torch.sqrt(1.0 - e2 * torch.sin(lat) ** 2)
    return torch.stack(((v + h) * torch.cos(lat) * torch.cos(lon),
                        (v + h) * torch.cos(lat) * torch.sin(lon),
                        (v * (1.0 - e2) + h) * torch.sin(lat)), dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rs [E,R,S,3] (m), dts [E,R,S] (s), P [E,R,S] (m), rr [E,R,4] (x, y, z, dtr in m), pos [E,R,3] (rad, rad, m)."""
    s = META["sizes"][size]
    E, R, S = s["epochs"], s["rcv"], s["sats"]
    g = torch.Generator().manual_seed(seed)
    f64 = dict(generator=g, dtype=torch.float64)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # network stations; the iterate wanders a few metres around them from epoch to epoch
    lat = (torch.rand(R, **f64) * 130.0 - 60.0) * math.pi / 180.0
    lon = (torch.rand(R, **f64) * 360.0 - 180.0) * math.pi / 180.0
    hgt = torch.rand(R, **f64) * 1500.0
    pos = torch.stack((lat, lon, hgt), dim=-1)[None].repeat(E, 1, 1)
    pos[..., :2] += torch.randn(E, R, 2, **f64) * 5e-7
    pos[..., 2] += torch.randn(E, R, **f64) * 3.0
    xyz = _pos2ecef(pos[..., 0], pos[..., 1], pos[..., 2])
    dtr = (torch.rand(E, R, **f64) - 0.5) * 6e5
    rr = torch.cat((xyz, dtr[..., None]), dim=-1)
    # satellites: azimuth / elevation seen from the station, on MEO orbits of 25.5-29.6 thousand km
    az = torch.rand(E, R, S, **f64) * 2.0 * math.pi
    el = (2.0 + torch.rand(E, R, S, **f64) * 86.0) * math.pi / 180.0
    la, lo = pos[..., 0, None], pos[..., 1, None]
    east = torch.stack((-torch.sin(lo), torch.cos(lo), torch.zeros_like(lo)), dim=-1)
    north = torch.stack((-torch.sin(la) * torch.cos(lo), -torch.sin(la) * torch.sin(lo), torch.cos(la)), dim=-1)
    up = torch.stack((torch.cos(la) * torch.cos(lo), torch.cos(la) * torch.sin(lo), torch.sin(la)), dim=-1)
    u = (torch.cos(el) * torch.sin(az))[..., None] * east + (torch.cos(el) * torch.cos(az))[..., None] * north \
        + torch.sin(el)[..., None] * up
    radius = torch.tensor([25.51e6, 26.56e6, 27.91e6, 29.60e6], dtype=torch.float64)[
        torch.randint(0, 4, (S,), generator=g)]
    p = xyz[..., None, :]
    pu = (p * u).sum(-1)
    rng = -pu + torch.sqrt(pu * pu - (p * p).sum(-1) + radius ** 2)
    rs = p + rng[..., None] * u
    dts = (torch.rand(E, R, S, **f64) - 0.5) * 2e-3
    truth = rng + OMGE * (rs[..., 0] * p[..., 1] - rs[..., 1] * p[..., 0]) / CLIGHT
    P = truth + dtr[..., None] - CLIGHT * dts + 2.4 / torch.sin(el) + torch.randn(E, R, S, **f64) * 2.0
    P[torch.rand(E, R, S, generator=g) < 0.03] = 0.0            # signal not tracked
    empty = torch.rand(E, R, S, generator=g) < 0.05             # slot without ephemeris
    rs[empty] = 0.0
    P[empty] = 0.0
    return tuple(x.to(dt).to(device) for x in (rs, dts, P, rr, pos))


def reference(rs, dts, P, rr, pos) -> tuple:
    rs, dts, P, rr, pos = (x.double() for x in (rs, dts, P, rr, pos))
    p = rr[..., None, :3]
    d = rs - p
    rho = torch.linalg.vector_norm(d, dim=-1)
    e = d / rho[..., None]
    rho = rho + OMGE * (rs[..., 0] * p[..., 1] - rs[..., 1] * p[..., 0]) / CLIGHT
    lat, lon, h = pos[..., 0, None], pos[..., 1, None], pos[..., 2, None]
    sinel = e[..., 0] * torch.cos(lat) * torch.cos(lon) + e[..., 1] * torch.cos(lat) * torch.sin(lon) \
        + e[..., 2] * torch.sin(lat)
    hgt = h.clamp(min=0.0)
    pres = 1013.25 * torch.pow(1.0 - 2.2557e-5 * hgt, 5.2568)
    temp = 15.0 - 6.5e-3 * hgt + 273.16
    ew = 6.108 * REL_HUMI * torch.exp((17.15 * temp - 4684.0) / (temp - 38.45))
    zh = 0.0022768 * pres / (1.0 - 0.00266 * torch.cos(2.0 * lat) - 0.00028 * hgt / 1e3)
    zw = 0.002277 * (1255.0 / temp + 0.05) * ew
    valid = (P != 0.0) & ((rs * rs).sum(-1) >= RE_WGS84 ** 2) & (sinel >= math.sin(EL_MASK))
    sin_ok = torch.where(valid, sinel, torch.ones_like(sinel))
    dtrp = (zh + zw) / sin_ok
    v = P - (rho + rr[..., 3, None] - CLIGHT * dts + dtrp)
    varr = 100.0 ** 2 * (0.003 ** 2 + 0.003 ** 2 / sin_ok) * 3.0 ** 2
    var = varr + ERR_CBIAS ** 2 + (ERR_SAAS / (sin_ok + 0.1)) ** 2
    H = torch.cat((-e, torch.ones_like(e[..., :1])), dim=-1)
    zero = torch.zeros_like(v)
    return (torch.where(valid, v, zero), torch.where(valid[..., None], H, torch.zeros_like(H)),
            torch.where(valid, var, zero))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["epochs"] * s["rcv"] * s["sats"]
    return {"bytes": n * (40 + 48) + s["epochs"] * s["rcv"] * 56, "flops": n * 60}
