"""GF-2 PMS multispectral radiometric calibration: 10-bit DN to top-of-atmosphere reflectance.

Per band b (CRESDA absolute calibration coefficients and the band's exo-atmospheric irradiance):
    L_b   = gain_b * DN + offset_b                              (radiance, W m^-2 sr^-1 um^-1)
    rho_b = pi * L_b * d^2 / (ESUN_b * cos(theta_s))            (TOA reflectance)
with d the Earth-Sun distance in AU and theta_s the scene's solar zenith angle.
"""
import math

import torch

META = {
    "name": "gf2_pms_toa_reflectance",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 4, "H": 37, "W": 53},
        "ragged": {"B": 4, "H": 61, "W": 347},
        "large": {"B": 4, "H": 6908, "W": 7300},
    },
    "baseline_notes": "Grid of (bands, cores // bands) programs: each program loads its band's gain, offset and ESUN "
                      "once and walks that band's pixels in 8192-pixel tiles with a stride of the grid's second axis; "
                      "int16 DN widened to fp32, one multiply-add and one scale per pixel, fp32 store; no autotune.",
    "deterministic": True,
}

# CRESDA GF-2 PMS1 MSS absolute calibration gains (B1 blue, B2 green, B3 red, B4 NIR) and band ESUN.
_GAIN = (0.1453, 0.1826, 0.1727, 0.1908)
_ESUN = (1945.3, 1854.1, 1542.9, 1080.8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dn [B, H, W] int16 (10-bit counts), gain [B], offset [B], esun [B] fp32, d_au, sun_zenith_deg (floats)."""
    s = META["sizes"][size]
    B, H, W = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dn = torch.randint(0, 1024, (B, H, W), generator=g, dtype=torch.int32)
    dn[:, :, : max(1, W // 50)] = 0  # no-data collar at the scene edge
    gain = torch.tensor(_GAIN[:B]) * (1.0 + 0.02 * torch.randn(B, generator=g))
    offset = 0.5 * torch.randn(B, generator=g)
    esun = torch.tensor(_ESUN[:B])
    d_au = 0.9833 + 0.0334 * float(torch.rand(1, generator=g))
    sun_zenith_deg = 20.0 + 45.0 * float(torch.rand(1, generator=g))
    return (dn.to(torch.int16).to(device), gain.to(dt).to(device), offset.to(dt).to(device),
            esun.to(dt).to(device), d_au, sun_zenith_deg)


def reference(dn, gain, offset, esun, d_au, sun_zenith_deg):
    radiance = gain.double()[:, None, None] * dn.double() + offset.double()[:, None, None]
    k = math.pi * d_au * d_au / math.cos(math.radians(sun_zenith_deg))
    return (radiance * k / esun.double()[:, None, None]).to(gain.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["W"]
    return {"bytes": 6 * n + 12 * s["B"], "flops": 3 * n}
