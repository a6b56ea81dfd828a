"""Delay-and-sum beamforming of plane-wave RF channel data with coherent compounding (ultraspy / USTB style).

For a linear array of n_el elements at x_e (z = 0, uniform pitch) the scanner fires n_tx steered plane waves
(angles theta_t) and records RF channel data rf[t, e, s] sampled at fs from t = 0. Each pixel (x, z) of the
image is the compounded sum

    out(x, z) = sum_t sum_e w_e(x, z) * rf_t,e(tau)
    tau       = (x sin theta_t + z cos theta_t + (L / 2) |sin theta_t| + sqrt((x - x_e)^2 + z^2)) / c

where L = x_{n_el-1} - x_0 is the aperture width (the plane wave's first element fires at t = 0), rf(tau) is
the linear interpolation of the channel samples at s = tau * fs (zero outside the recorded samples) and w_e is
a triangular receive apodisation over the dynamic aperture of F-number F#: w = max(1 - 2 |r|, 0),
r = (x - x_e) F# / z. Returns the beamformed RF image [nx, nz], z the fastest axis.
"""
import math

import torch

META = {
    "name": "das_plane_wave_rf",
    "level": 3,
    "category": "beamforming",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_tx": 2, "n_el": 8, "n_samp": 256, "nx": 8, "nz": 16},
        "ragged": {"n_tx": 3, "n_el": 13, "n_samp": 300, "nx": 7, "nz": 19},
        "large": {"n_tx": 11, "n_el": 192, "n_samp": 2304, "nx": 384, "nz": 1024},
    },
    "baseline_notes": "Grid (depth blocks of 128 pixels, lateral lines); each program keeps its 128 pixels' "
                      "sums in fp32 registers and loops over angles and over the elements inside the F-number "
                      "aperture of its deepest pixel (x +- z_max / (2 F#), from the uniform pitch): time of "
                      "flight, triangular apodisation and linear interpolation of the two neighbouring RF "
                      "samples (loads masked by the per-pixel aperture); one store per pixel. 4 warps, no "
                      "autotune.",
    "deterministic": True,
}

C_SOUND = 1540.0        # m/s
F_CENTER = 7.8125e6     # Hz, Verasonics L12-3v (192 elements, 0.2 mm pitch)
FS = 31.25e6            # Hz, 4 samples per period
PITCH = 0.2e-3          # m
F_NUMBER = 1.75
MAX_ANGLE = math.radians(16.0)
Z_MAX = 40e-3           # m


def _geometry(s: dict) -> tuple:
    """Element positions, angles and a pixel grid whose every echo lies inside the recorded samples."""
    n_el, n_samp = s["n_el"], s["n_samp"]
    elem_x = (torch.arange(n_el, dtype=torch.float64) - (n_el - 1) / 2) * PITCH
    aperture = (n_el - 1) * PITCH
    angles = torch.linspace(-MAX_ANGLE, MAX_ANGLE, s["n_tx"], dtype=torch.float64)
    # z 5-40 mm, or shallower where (d_tx + d_rx) must stay inside 95 % of the recorded path
    path = 0.95 * (n_samp - 2) / FS * C_SOUND
    a = path - aperture * math.sin(MAX_ANGLE)
    z_max = min(Z_MAX, (a * a - aperture * aperture) / (2 * a))
    pix_x = torch.linspace(-aperture / 2, aperture / 2, s["nx"], dtype=torch.float64)
    pix_z = torch.linspace(0.125 * z_max, z_max, s["nz"], dtype=torch.float64)
    return elem_x, angles, pix_x, pix_z, aperture


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rf [n_tx, n_el, n_samp], angles [n_tx], elem_x [n_el], pix_x [nx], pix_z [nz], fs, c, F#."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    elem_x, angles, pix_x, pix_z, aperture = _geometry(s)
    n_tx, n_el, n_samp = s["n_tx"], s["n_el"], s["n_samp"]
    t = torch.arange(n_samp, dtype=torch.float64) / FS
    n_scat = 3 if size != "large" else 12
    sx = pix_x[0] + (pix_x[-1] - pix_x[0]) * torch.rand(n_scat, generator=g, dtype=torch.float64)
    sz = pix_z[0] + (pix_z[-1] - pix_z[0]) * torch.rand(n_scat, generator=g, dtype=torch.float64)
    amp = 0.5 + torch.rand(n_scat, generator=g, dtype=torch.float64)
    sigma = 0.8 / F_CENTER                                  # ~2-cycle Gaussian pulse envelope
    sin_t, cos_t = torch.sin(angles), torch.cos(angles)
    rf = torch.randn(n_tx, n_el, n_samp, generator=g, dtype=torch.float64) * 0.02
    for k in range(n_scat):
        d_tx = sx[k] * sin_t + sz[k] * cos_t + 0.5 * aperture * sin_t.abs()
        tau = (d_tx[:, None] + torch.sqrt((sx[k] - elem_x) ** 2 + sz[k] ** 2)[None, :]) / C_SOUND
        lag = t[None, None, :] - tau[:, :, None]
        rf += amp[k] * torch.exp(-0.5 * (lag / sigma) ** 2) * torch.cos(2 * math.pi * F_CENTER * lag)
    cast = lambda v: v.to(dtype=dt).to(device).contiguous()
    return cast(rf), cast(angles), cast(elem_x), cast(pix_x), cast(pix_z), FS, C_SOUND, F_NUMBER


def reference(rf, angles, elem_x, pix_x, pix_z, fs, c, f_number) -> torch.Tensor:
    n_tx, n_el, n_samp = rf.shape
    data = rf.double()
    ex, th = elem_x.double(), angles.double()
    x = pix_x.double()[:, None]                    # [nx, 1]
    z = pix_z.double()[None, :]                    # [1, nz]
    aperture = (ex[-1] - ex[0]).item()
    out = torch.zeros(x.shape[0], z.shape[1], dtype=torch.float64, device=rf.device)
    for t in range(n_tx):
        d_tx = x * torch.sin(th[t]) + z * torch.cos(th[t]) + 0.5 * aperture * torch.sin(th[t]).abs()
        for e in range(n_el):
            dx = x - ex[e]
            smp = (d_tx + torch.sqrt(dx * dx + z * z)) / c * fs
            i0 = torch.floor(smp)
            a = smp - i0
            i0 = i0.long()
            ok = (i0 >= 0) & (i0 < n_samp - 1)
            i0c = i0.clamp(0, n_samp - 2)
            val = data[t, e][i0c] * (1 - a) + data[t, e][i0c + 1] * a
            w = torch.clamp(1.0 - 2.0 * (dx * f_number / z).abs(), min=0.0)
            out += torch.where(ok, w * val, torch.zeros_like(val))
    return out.to(rf.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    terms = s["n_tx"] * s["n_el"] * s["nx"] * s["nz"]
    return {"bytes": 4 * s["n_tx"] * s["n_el"] * s["n_samp"] + 4 * s["nx"] * s["nz"], "flops": 20 * terms}
