"""Satellite position and clock from broadcast ephemerides (RTKLIB ephemeris.c eph2pos(), via satposs()).

For every observation (transmission time t in GPST seconds of week, index of the ephemeris record that
seleph() chose for its satellite) with Keplerian elements A, e, i0, OMG0, omg, M0, deln, OMGd, idot,
harmonic corrections crc/crs/cuc/cus/cic/cis, toe (GPST), toes (seconds of week in the system's own
time), toc and clock polynomial f0/f1/f2:

    tk = t - toe, M = M0 + (sqrt(mu / A^3) + deln) tk
    E  : Newton on Kepler's equation E - e sin E = M from E = M, until |E - E_prev| <= 1e-13
         (at most MAX_ITER_KEPLER = 30 steps)
    u  = atan2(sqrt(1 - e^2) sin E, cos E - e) + omg, r = A (1 - e cos E), i = i0 + idot tk,
         each corrected by (c_s sin 2u + c_c cos 2u)
    O  = OMG0 + (OMGd - omge) tk - omge toes
    rs = (x cos O - y cos i sin O, x sin O + y cos i cos O, y sin i), x = r cos u, y = r sin u
    dts = f0 + f1 (t - toc) + f2 (t - toc)^2 - 2 sqrt(mu A) e sin E / CLIGHT^2

mu and omge follow the record's system (0 GPS, 1 Galileo, 2 BeiDou MEO/IGSO). Returns
(rs [N, 3] m, dts [N] s) fp64.
"""
import math

import torch

CLIGHT = 299792458.0
MU = (3.9860050e14, 3.986004418e14, 3.986004418e14)
OMGE = (7.2921151467e-5, 7.2921151467e-5, 7.292115e-5)
RTOL_KEPLER = 1e-13
MAX_ITER_KEPLER = 30
FIELDS = ("A", "e", "i0", "OMG0", "omg", "M0", "deln", "OMGd", "idot", "crc", "crs", "cuc", "cus",
          "cic", "cis", "toe", "toes", "toc", "f0", "f1", "f2", "sys")
NFIELD = 24   # record stride (fields padded to 24 doubles)

META = {
    "name": "broadcast_eph_satpos",
    "level": 2,
    "category": "gnss",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-6, "rtol": 1e-11}},  # GPU fp64 sin/cos vs the CPU: ~1e-7 m on 2.6e7 m
    "sizes": {
        "small": {"epochs": 12, "sats": 8, "span_s": 20000.0},
        "ragged": {"epochs": 19, "sats": 7, "span_s": 30000.0},
        "large": {"epochs": 86400, "sats": 48, "span_s": 86400.0},
    },
    "baseline_notes": "One program per 128 observations (4 warps), fp64 as RTKLIB: the selected record's "
                      "elements gathered per observation (the table stays in L1/L2), Newton on Kepler's "
                      "equation in a while loop that stops when every lane of the block has converged "
                      "(|dE| <= 1e-13, <= 30 steps), the true anomaly by the sin/cos identities of "
                      "atan2, harmonic corrections, rotation and clock polynomial with relativity; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """obs_time [N] fp64 (GPST s of week), obs_eph [N] int32, eph [NEPH, 24] fp64 (fields FIELDS)."""
    s = META["sizes"][size]
    n_ep, n_sat, span = s["epochs"], s["sats"], s["span_s"]
    g = torch.Generator().manual_seed(seed)
    f64 = dict(generator=g, dtype=torch.float64)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t0 = 3 * 86400.0                       # a day in the middle of the GPS week
    toe_step = 7200.0
    n_rec = int(math.ceil(span / toe_step)) + 1
    sys = torch.tensor([0] * (n_sat // 2) + [1] * (n_sat // 4) + [2] * (n_sat - n_sat // 2 - n_sat // 4))
    sma = torch.tensor((26_560e3, 29_600e3, 27_906e3), dtype=torch.float64)[sys]
    sma = torch.where((sys == 2) & (torch.arange(n_sat) % 4 == 3), torch.tensor(42_164e3, dtype=torch.float64), sma)
    emax = torch.tensor((0.02, 0.001, 0.004), dtype=torch.float64)[sys]
    ecc0 = emax * (0.1 + 0.9 * torch.rand(n_sat, **f64))
    R = n_sat * n_rec

    def per_rec(base, jitter):
        return (base[:, None] + jitter * torch.randn(n_sat, n_rec, **f64)).reshape(R)

    toe = (t0 + toe_step * torch.arange(n_rec, dtype=torch.float64))[None, :].expand(n_sat, n_rec).reshape(R)
    rec = {
        "A": per_rec(sma + 2e3 * torch.randn(n_sat, **f64), 5.0),
        "e": per_rec(ecc0, 1e-7),
        "i0": per_rec(torch.full((n_sat,), 0.96, dtype=torch.float64) + 0.02 * torch.randn(n_sat, **f64), 1e-8),
        "OMG0": per_rec((torch.rand(n_sat, **f64) * 2 - 1) * math.pi, 1e-8),
        "omg": per_rec((torch.rand(n_sat, **f64) * 2 - 1) * math.pi, 1e-6),
        "M0": per_rec((torch.rand(n_sat, **f64) * 2 - 1) * math.pi, 0.0)
        + (toe - t0) * 1.45e-4,        # the mean anomaly advances between records
        "deln": per_rec(4.5e-9 + 5e-10 * torch.randn(n_sat, **f64), 1e-12),
        "OMGd": per_rec(-8.0e-9 + 3e-10 * torch.randn(n_sat, **f64), 1e-12),
        "idot": per_rec(1e-10 * torch.randn(n_sat, **f64), 1e-12),
        "crc": per_rec(200.0 * torch.randn(n_sat, **f64), 5.0),
        "crs": per_rec(60.0 * torch.randn(n_sat, **f64), 5.0),
        "cuc": per_rec(4e-6 * torch.randn(n_sat, **f64), 1e-7),
        "cus": per_rec(6e-6 * torch.randn(n_sat, **f64), 1e-7),
        "cic": per_rec(1e-7 * torch.randn(n_sat, **f64), 1e-8),
        "cis": per_rec(1e-7 * torch.randn(n_sat, **f64), 1e-8),
        "toe": toe,
        "f0": per_rec(4e-4 * torch.randn(n_sat, **f64), 1e-9),
        "f1": per_rec(3e-12 * torch.randn(n_sat, **f64), 1e-14),
        "f2": torch.zeros(R, dtype=torch.float64),
        "sys": sys[:, None].expand(n_sat, n_rec).reshape(R).double(),
    }
    rec["M0"] = torch.remainder(rec["M0"] + math.pi, 2 * math.pi) - math.pi
    rec["toes"] = torch.where(rec["sys"] == 2, toe - 14.0, toe)       # BDT seconds of week
    rec["toc"] = toe
    eph = torch.zeros(R, NFIELD, dtype=torch.float64)
    for k, name in enumerate(FIELDS):
        eph[:, k] = rec[name]
    # observations: every epoch sees all satellites; transmission time = reception - travel time;
    # seleph(): the record of the satellite with the nearest toe
    t_rx = t0 + torch.arange(n_ep, dtype=torch.float64) * (span / n_ep)
    t = t_rx[:, None] - (0.067 + 0.02 * torch.rand(n_ep, n_sat, **f64))
    k = torch.round((t - t0) / toe_step).clamp(0, n_rec - 1).long()
    obs_eph = (torch.arange(n_sat)[None, :] * n_rec + k).to(torch.int32)
    return t.reshape(-1).to(dt).to(device), obs_eph.reshape(-1).to(device), eph.to(dt).to(device)


def reference(obs_time, obs_eph, eph) -> tuple:
    p = eph.double()[obs_eph.long()]
    f = {name: p[:, k] for k, name in enumerate(FIELDS)}
    sysi = f["sys"].long()
    mu = torch.tensor(MU, dtype=torch.float64, device=p.device)[sysi]
    omge = torch.tensor(OMGE, dtype=torch.float64, device=p.device)[sysi]
    A, e = f["A"], f["e"]
    tk = obs_time.double() - f["toe"]
    M = f["M0"] + (torch.sqrt(mu / (A * A * A)) + f["deln"]) * tk
    E, Ek = M.clone(), torch.zeros_like(M)
    for _ in range(MAX_ITER_KEPLER):
        live = (E - Ek).abs() > RTOL_KEPLER
        if not bool(live.any()):
            break
        step = (E - e * torch.sin(E) - M) / (1.0 - e * torch.cos(E))
        Ek = torch.where(live, E, Ek)
        E = torch.where(live, E - step, E)
    sinE, cosE = torch.sin(E), torch.cos(E)
    u = torch.atan2(torch.sqrt(1.0 - e * e) * sinE, cosE - e) + f["omg"]
    r = A * (1.0 - e * cosE)
    i = f["i0"] + f["idot"] * tk
    sin2u, cos2u = torch.sin(2.0 * u), torch.cos(2.0 * u)
    u = u + f["cus"] * sin2u + f["cuc"] * cos2u
    r = r + f["crs"] * sin2u + f["crc"] * cos2u
    i = i + f["cis"] * sin2u + f["cic"] * cos2u
    x, y, cosi = r * torch.cos(u), r * torch.sin(u), torch.cos(i)
    O = f["OMG0"] + (f["OMGd"] - omge) * tk - omge * f["toes"]
    sinO, cosO = torch.sin(O), torch.cos(O)
    rs = torch.stack((x * cosO - y * cosi * sinO, x * sinO + y * cosi * cosO, y * torch.sin(i)), dim=-1)
    tc = obs_time.double() - f["toc"]
    dts = f["f0"] + f["f1"] * tc + f["f2"] * tc * tc - 2.0 * torch.sqrt(mu * A) * e * sinE / CLIGHT ** 2
    return rs.to(obs_time.dtype), dts.to(obs_time.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["epochs"] * s["sats"]
    return {"bytes": n * (8 + 4 + 32), "flops": n * 600}
