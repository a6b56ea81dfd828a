"""Rotor-effective wind speed of every turbine (FLORIS `rotor_effective_velocity`, cubic-mean averaging).

FLORIS samples the flow on an n_grid x n_grid grid of points over each rotor and reduces it to one
rotor-effective speed per (findex, turbine), the speed the power and thrust curves are read at:
    u_avg[f, t] = cbrt( mean_p u[f, t, p]^3 )                          ("cubic-mean" over the P = G*G points)
    u_eff[f, t] = (rho / rho_ref)^(1/3) * u_avg[f, t]                  (air-density correction)
                  * cosd(yaw[f, t])^(pP / 3)                           (yaw cosine loss, cosine_loss_exponent_yaw)
                  * (cosd(tilt[f, t]) / cosd(ref_tilt))^(pT / 3)       (tilt cosine loss of floating turbines)
Large size: a one-year hourly time series (8,760 findices) of a 100-turbine floating farm of IEA 15-MW
turbines on the default 3 x 3 turbine grid, with a wake-steering yaw schedule and platform tilt per hour.
"""
import math

import torch

META = {
    "name": "floris_rotor_effective_velocity",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"F": 6, "T": 5, "G": 3},
        "ragged": {"F": 7, "T": 13, "G": 4},
        "large": {"F": 8760, "T": 100, "G": 3},
    },
    "baseline_notes": "40 programs (the vector cores of an Atlas A2) loop over blocks of 256 rotors; each block "
                      "is one [256, next_power_of_2(G*G)] tile of the grid-point speeds (row stride G*G, point "
                      "mask), cubed and summed along the contiguous axis, cube root by exp/log, times the density, "
                      "yaw and tilt factors (yaw and tilt loaded as 256-wide vectors), one vector store per block.",
    "deterministic": True,
}
HUB_HEIGHT = 150.0
ROTOR_RADIUS = 120.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """velocities [F, T, G, G] (m/s), yaw [F, T] (deg), tilt [F, T] (deg), then the scalar settings:
    air_density, ref_air_density, cosine_loss_exponent_yaw, cosine_loss_exponent_tilt, ref_tilt (deg)."""
    s = META["sizes"][size]
    F, T, G = s["F"], s["T"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u_inf = 4.0 + 16.0 * torch.rand(F, 1, 1, 1, generator=g)
    waked = 0.55 + 0.45 * torch.rand(F, T, 1, 1, generator=g)
    z = HUB_HEIGHT + ROTOR_RADIUS * 0.5 * torch.linspace(-1.0, 1.0, G)
    shear = (z / HUB_HEIGHT).pow(0.12).view(1, 1, G, 1)
    ripple = 1.0 + 0.04 * torch.randn(F, T, G, G, generator=g)
    velocities = u_inf * waked * shear * ripple
    yaw = 25.0 * (2.0 * torch.rand(F, T, generator=g) - 1.0)
    tilt = 3.0 + 6.0 * torch.rand(F, T, generator=g)
    return (velocities.to(device=device, dtype=dt), yaw.to(device=device, dtype=dt),
            tilt.to(device=device, dtype=dt), 1.20, 1.225, 1.88, 1.88, 6.0)


def reference(velocities, yaw, tilt, air_density, ref_air_density, cos_exp_yaw, cos_exp_tilt, ref_tilt):
    F, T = velocities.shape[:2]
    u = velocities.double().reshape(F, T, -1)
    avg = u.pow(3).mean(dim=-1).pow(1.0 / 3.0)
    avg = (air_density / ref_air_density) ** (1.0 / 3.0) * avg
    avg = avg * torch.cos(torch.deg2rad(yaw.double())).pow(cos_exp_yaw / 3.0)
    avg = avg * (torch.cos(torch.deg2rad(tilt.double())) / math.cos(math.radians(ref_tilt))).pow(cos_exp_tilt / 3.0)
    return avg.to(velocities.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, P = s["F"] * s["T"], s["G"] * s["G"]
    return {"bytes": 4 * R * P + 12 * R, "flops": 3 * R * P + 30 * R}
