"""Doppler centroid estimation by the average cross-correlation coefficient (ACCC, Madsen 1989), the
estimator of ROI_PAC / ISCE2 mroipac dopiq (and of GAMMA's dop_mlcc on raw data).

For every range bin r of a raw patch s [Na, Nr] (I/Q unpacked to fp32 planes, bias removed), the lag-one
azimuth autocorrelation
    C[r] = 1 / (Na - 1) * sum_{a=0}^{Na-2} s[a + 1, r] * conj(s[a, r])
whose phase is 2 pi f_dc(r) / PRF (the fractional Doppler that dopiq fits with a polynomial in range).
Returns (c_re, c_im), fp32 [Nr].
"""
import math

import torch

META = {
    "name": "accc_doppler_centroid",
    "level": 2,
    "category": "sar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"Na": 40, "Nr": 48},
        "ragged": {"Na": 37, "Nr": 203},
        "large": {"Na": 8192, "Nr": 10240},
    },
    "baseline_notes": "Programs (at most 40, the A2's vector cores) own strips of 128 contiguous range bins "
                      "and walk down azimuth 16 pulses at a time: [16, 128] tiles of lines a and a + 1 for "
                      "both planes, the lag-one product accumulated in two [16, 128] register tiles, reduced "
                      "over the pulse axis once at the end; two stores per strip. No autotune.",
    "deterministic": True,
}
SMOOTH = 8  # azimuth correlation length of the simulated clutter, pulses


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """re, im [Na, Nr]: azimuth-correlated clutter under a Doppler phase ramp whose centroid drifts
    across range (0.05 to 0.3 of the PRF), plus receiver noise."""
    s = META["sizes"][size]
    na, nr = s["Na"], s["Nr"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    white = torch.complex(torch.randn(na + SMOOTH, nr, generator=g), torch.randn(na + SMOOTH, nr, generator=g))
    csum = torch.cumsum(white, dim=0)
    clutter = (csum[SMOOTH:] - csum[:-SMOOTH]) / math.sqrt(SMOOTH)
    del white, csum
    fdc = 0.05 + 0.25 * torch.arange(nr, dtype=torch.float32) / max(nr - 1, 1)
    phase = 2 * math.pi * torch.arange(na, dtype=torch.float32)[:, None] * fdc[None, :]
    sig = clutter * torch.polar(torch.ones_like(phase), phase)
    del clutter, phase
    sig += 0.3 * torch.complex(torch.randn(na, nr, generator=g), torch.randn(na, nr, generator=g))
    return sig.real.contiguous().to(device=device, dtype=dt), sig.imag.contiguous().to(device=device, dtype=dt)


def reference(re: torch.Tensor, im: torch.Tensor) -> tuple:
    s = torch.complex(re.double(), im.double())
    c = (s[1:] * s[:-1].conj()).sum(dim=0) / (s.shape[0] - 1)
    return c.real.to(re.dtype), c.imag.to(re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["Na"] * s["Nr"] + 8 * s["Nr"], "flops": 8 * s["Na"] * s["Nr"]}
