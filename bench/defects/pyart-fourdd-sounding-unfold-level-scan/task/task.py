"""Sounding first-guess velocity unfolding of a radar volume (Py-ART dealias_fourdd's sounding step).

Py-ART's FourDD dealiaser (pyart.correct.dealias_fourdd with sonde_profile, sounding_to_volume.c) and
pyart.util.simulated_vel_from_profile build a first-guess radial velocity at every gate from a
horizontal-wind profile: the gate altitude follows the 4/3 effective-earth-radius beam model of
pyart.core.antenna_to_cartesian,
    z = sqrt(r^2 + R^2 + 2 r R sin(el)) - R + radar_altitude,    R = 4/3 * 6371 km,
u and v are interpolated linearly in height from the sonde (no value outside the sonde's height span,
interp1d(bounds_error=False)), and the first guess is vr = (u sin(az) + v cos(az)) cos(el). Every
observed velocity is then unfolded to the Nyquist interval centred on the first guess,
    v_unf = v + 2 V_N * round((vr - v) / (2 V_N)),
with V_N the ray's Nyquist velocity. Gates without a first guess (above or below the sonde) keep the
observed value; masked gates hold Py-ART's fill value -9999 and keep it.
Returns the unfolded velocity [rays, gates] fp32.
"""
import math

import torch

META = {
    "name": "sounding_first_guess_unfold",
    "level": 2,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"sweeps": 2, "rays_per_sweep": 8, "gates": 40, "levels": 100},
        "ragged": {"sweeps": 3, "rays_per_sweep": 7, "gates": 53, "levels": 77},
        "large": {"sweeps": 14, "rays_per_sweep": 720, "gates": 1192, "levels": 2400},
    },
    "baseline_notes": "Grid (rays, gate blocks of 256); each program computes its gates' 4/3-earth altitude, "
                      "finds each gate's sonde interval by a branch-free binary search over the sorted "
                      "sonde heights (ceil(log2(levels + 1)) steps of a gathered load), interpolates u and "
                      "v, projects them on the beam and unfolds by the nearest Nyquist multiple. 4 warps, "
                      "no autotune.",
    "deterministic": True,
}

FILL = -9999.0
R_EFF = 6371000.0 * 4.0 / 3.0
# WSR-88D VCP 212 elevation angles (degrees)
VCP212 = [0.5, 0.9, 1.3, 1.8, 2.4, 3.1, 4.0, 5.1, 6.4, 8.0, 10.0, 12.5, 15.6, 19.5]


def _wind(z: torch.Tensor) -> tuple:
    """A veering profile with a jet near 10 km: (u, v) in m/s at heights z (m)."""
    speed = 6.0 + 38.0 * torch.exp(-((z - 10000.0) / 4500.0) ** 2) + 0.0012 * z.clamp(max=6000.0)
    direction = torch.deg2rad(170.0 + 0.011 * z.clamp(max=9000.0))  # meteorological "from" direction
    return -speed * torch.sin(direction), -speed * torch.cos(direction)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vel [R, G] (folded, -9999 = masked), azimuth [R] and elevation [R] (deg), gate_range [G] (m),
    nyquist [R] (m/s), sonde height [L] (m, increasing), sonde u [L], sonde v [L] (m/s), radar altitude (m)."""
    s = META["sizes"][size]
    n_sweeps, n_az, n_gates, n_levels = s["sweeps"], s["rays_per_sweep"], s["gates"], s["levels"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    radar_alt = 370.0
    elev = torch.tensor([VCP212[(i * len(VCP212)) // n_sweeps] for i in range(n_sweeps)], dtype=torch.float64)
    elevation = elev.repeat_interleave(n_az) + 0.05 * (torch.rand(n_sweeps * n_az, generator=g, dtype=torch.float64) - 0.5)
    azimuth = (torch.arange(n_az, dtype=torch.float64) * (360.0 / n_az)).repeat(n_sweeps)
    azimuth = (azimuth + 0.2 * torch.rand(n_sweeps * n_az, generator=g, dtype=torch.float64)) % 360.0
    nyq_sweep = 12.0 + 18.0 * torch.rand(n_sweeps, generator=g, dtype=torch.float64)
    nyquist = nyq_sweep.repeat_interleave(n_az)
    # the range span scales with the gate count so that small sizes still reach above the sonde top
    dr = 250.0 * 1192.0 / n_gates
    gate_range = 2125.0 + dr * torch.arange(n_gates, dtype=torch.float64)
    # sonde: launched at the site, ~5 m/s ascent, sampled to 12 km, a little measurement noise
    sonde_h = radar_alt - 120.0 + torch.linspace(0.0, 12000.0, n_levels, dtype=torch.float64)
    sonde_h = sonde_h + 0.3 * (12000.0 / n_levels) * torch.rand(n_levels, generator=g, dtype=torch.float64)
    sonde_h, _ = torch.sort(sonde_h)
    su, sv = _wind(sonde_h)
    su = su + (torch.rand(n_levels, generator=g, dtype=torch.float64) - 0.5)
    sv = sv + (torch.rand(n_levels, generator=g, dtype=torch.float64) - 0.5)
    # true radial velocity: the profile plus local deviations of up to 0.3 V_N, folded into [-V_N, V_N)
    el = torch.deg2rad(elevation)[:, None]
    az = torch.deg2rad(azimuth)[:, None]
    r = gate_range[None, :]
    z = torch.sqrt(r * r + R_EFF ** 2 + 2.0 * r * R_EFF * torch.sin(el)) - R_EFF + radar_alt
    tu, tv = _wind(z)
    v_true = (tu * torch.sin(az) + tv * torch.cos(az)) * torch.cos(el)
    v_true = v_true + 0.3 * nyquist[:, None] * (2.0 * torch.rand(v_true.shape, generator=g, dtype=torch.float64) - 1.0)
    two_nyq = 2.0 * nyquist[:, None]
    vel = torch.remainder(v_true + nyquist[:, None], two_nyq) - nyquist[:, None]
    vel[torch.rand(vel.shape, generator=g) < 0.15] = FILL
    # gates within 5 m of the sonde top are masked: whether they get a first guess would depend on rounding
    vel[(z - sonde_h.to(dt).double()[-1]).abs() < 5.0] = FILL
    to = lambda x: x.to(dtype=dt, device=device)
    return (to(vel), to(azimuth), to(elevation), to(gate_range), to(nyquist),
            to(sonde_h), to(su), to(sv), radar_alt)


def reference(vel, azimuth, elevation, gate_range, nyquist, sonde_h, sonde_u, sonde_v, radar_alt) -> torch.Tensor:
    v = vel.double()
    el = torch.deg2rad(elevation.double())[:, None]
    az = torch.deg2rad(azimuth.double())[:, None]
    r = gate_range.double()[None, :]
    z = torch.sqrt(r * r + R_EFF ** 2 + 2.0 * r * R_EFF * torch.sin(el)) - R_EFF + radar_alt
    h, su, sv = sonde_h.double(), sonde_u.double(), sonde_v.double()
    n_levels = h.shape[0]
    idx = torch.searchsorted(h, z.contiguous(), right=True)  # number of sonde levels at or below z
    inside = (idx > 0) & (idx < n_levels)
    i1 = idx.clamp(1, n_levels - 1)
    i0 = i1 - 1
    w = (z - h[i0]) / (h[i1] - h[i0])
    u = su[i0] + w * (su[i1] - su[i0])
    vv = sv[i0] + w * (sv[i1] - sv[i0])
    vr = (u * torch.sin(az) + vv * torch.cos(az)) * torch.cos(el)
    nyq = nyquist.double()[:, None]
    unf = v + 2.0 * nyq * torch.round((vr - v) / (2.0 * nyq))
    out = torch.where(inside & (v != FILL), unf, v)
    return out.to(vel.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["sweeps"] * s["rays_per_sweep"] * s["gates"]
    return {"bytes": 8 * n + 12 * s["levels"], "flops": 60 * n}
