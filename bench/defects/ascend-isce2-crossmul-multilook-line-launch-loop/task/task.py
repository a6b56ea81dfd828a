"""Interferogram formation with multilooking (ISCE2 stdproc crossmul with LooksDown / LooksAcross, GAMMA SLC_intf).

Two co-registered SLCs s1, s2 [Naz, Nrg] (complex, given as fp32 real / imaginary planes) are
cross-multiplied and averaged over non-overlapping look cells of looks_az azimuth lines x looks_rg
range samples (partial cells at the far edges are dropped, as crossmul does):
    ifg[i, j]  = mean over the cell of s1 * conj(s2)
    amp1[i, j] = sqrt(mean |s1|^2),   amp2[i, j] = sqrt(mean |s2|^2)
Returns (ifg_re, ifg_im, amp1, amp2), each fp32 [Naz // looks_az, Nrg // looks_rg]: the multilooked
interferogram and the amplitude pair crossmul writes next to it.
"""
import math

import torch

META = {
    "name": "crossmul_multilook",
    "level": 2,
    "category": "sar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"Naz": 8, "Nrg": 64, "looks_az": 2, "looks_rg": 4},
        "ragged": {"Naz": 11, "Nrg": 77, "looks_az": 3, "looks_rg": 5},
        "large": {"Naz": 1504, "Nrg": 21120, "looks_az": 2, "looks_rg": 8},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) looping over blocks of one output "
                      "line x 256 output range samples: per azimuth look a [256, looks_rg] tile of each of the "
                      "four planes (looks_rg contiguous samples per row), products accumulated in registers, "
                      "reduced along the look axis and scaled; four stores per block. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """s1_re, s1_im, s2_re, s2_im [Naz, Nrg] (a speckled scene and its repeat-pass twin with a fringe
    pattern, topography phase and decorrelation noise), looks_az, looks_rg."""
    s = META["sizes"][size]
    naz, nrg = s["Naz"], s["Nrg"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    refl = torch.rand(naz, nrg, generator=g) * 1.5 + 0.2
    s1 = torch.complex(torch.randn(naz, nrg, generator=g), torch.randn(naz, nrg, generator=g)) * refl
    a = torch.arange(naz, dtype=torch.float32)[:, None]
    r = torch.arange(nrg, dtype=torch.float32)[None, :]
    phase = 2 * math.pi * (r / 37.0 + a / 211.0) + 3.0 * torch.sin(r / 500.0) * torch.cos(a / 90.0)
    noise = torch.complex(torch.randn(naz, nrg, generator=g), torch.randn(naz, nrg, generator=g))
    s2 = (0.8 * s1 + 0.35 * refl * noise) * torch.polar(torch.ones_like(phase), phase)
    planes = (s1.real, s1.imag, s2.real, s2.imag)
    return tuple(p.contiguous().to(device=device, dtype=dt) for p in planes) + (s["looks_az"], s["looks_rg"])


def reference(s1_re, s1_im, s2_re, s2_im, looks_az: int, looks_rg: int) -> tuple:
    s1 = torch.complex(s1_re.double(), s1_im.double())
    s2 = torch.complex(s2_re.double(), s2_im.double())
    m, n = s1.shape[0] // looks_az, s1.shape[1] // looks_rg
    s1, s2 = s1[:m * looks_az, :n * looks_rg], s2[:m * looks_az, :n * looks_rg]

    def looks(x):
        return x.reshape(m, looks_az, n, looks_rg).mean(dim=(1, 3))

    ifg = looks(s1 * s2.conj())
    amp1 = looks(s1.abs() ** 2).sqrt()
    amp2 = looks(s2.abs() ** 2).sqrt()
    dt = s1_re.dtype
    return ifg.real.to(dt), ifg.imag.to(dt), amp1.to(dt), amp2.to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["Naz"] * s["Nrg"]
    out = (s["Naz"] // s["looks_az"]) * (s["Nrg"] // s["looks_rg"])
    return {"bytes": 16 * px + 16 * out, "flops": 12 * px + 8 * out}
