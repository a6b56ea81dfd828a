"""Normal-mode pressure field on a depth x range grid (KRAKEN's FIELD program, point source, range-independent).

KRAKEN writes M modes: horizontal wavenumbers k_m = kr_m + i ki_m (ki_m >= 0: the modal attenuation) and
the mode shapes phi_m(z), sampled at the source depth (phi_s[m]) and at the receiver depths
(phi_r[z, m]). FIELD then evaluates the modal sum at every receiver depth z and range r:

    p(z, r) = exp(i pi / 4) / sqrt(8 pi r) * sum_m phi_s[m] phi_r[z, m] exp(i kr_m r) exp(-ki_m r) / sqrt(kr_m)

(the source in water, rho = 1; TL = -20 log10 |p|). Returns the real and imaginary parts of p, each
[NZ, NR] fp32. The modes here are those of a 5000 m deep-water guide with a pressure-release surface
and a hard bottom, with bottom attenuation growing with mode number.
"""
import math

import torch

META = {
    "name": "normal_mode_field",
    "level": 2,
    "category": "acoustics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-8, "rtol": 1e-3}},
    "sizes": {
        "small": {"M": 24, "NZ": 40, "NR": 72, "dr": 100.0},
        "ragged": {"M": 37, "NZ": 45, "NR": 101, "dr": 75.0},
        "large": {"M": 256, "NZ": 512, "NR": 4096, "dr": 25.0},
    },
    "baseline_notes": "min(20, tiles) programs (the A2's AI cores, cube + 2 vector cores each) loop over "
                      "[128 depths x 64 ranges] output tiles; per block of 64 modes the vector unit builds the "
                      "range factors g = phi_s / sqrt(kr) * exp(-ki r) * (cos, sin)(kr r) as [64 modes x 64 ranges] "
                      "tiles and the cube multiplies the [128 x 64] mode-shape tile into them with two tl.dot "
                      "(real, imaginary) into fp32 accumulators; the exp(i pi/4) / sqrt(8 pi r) factor is applied "
                      "once before the store. No autotune.",
    "deterministic": True,
}
DEPTH = 5000.0         # m
SOURCE_DEPTH = 1000.0  # m
SOUND_SPEED = 1500.0   # m/s


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """phi_r [NZ, M], phi_s [M], kr [M], ki [M] (1/m), ranges [NR] (m)."""
    s = META["sizes"][size]
    m, nz, nr = s["M"], s["NZ"], s["NR"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # the frequency at which exactly M modes propagate, jittered per seed
    freq = (m + 0.2 + 0.5 * float(torch.rand(1, generator=g))) * SOUND_SPEED / (2.0 * DEPTH)
    k = 2.0 * math.pi * freq / SOUND_SPEED
    gamma = (torch.arange(m, dtype=torch.float64) + 0.5) * math.pi / DEPTH
    kr = torch.sqrt(k * k - gamma * gamma)
    ki = 2e-6 + 4e-5 * (gamma / k) ** 2 * (1.0 + 0.1 * torch.rand(m, generator=g, dtype=torch.float64))
    zr = (torch.arange(nz, dtype=torch.float64) + 0.5) * (DEPTH / nz)
    norm = math.sqrt(2.0 / DEPTH)
    phi_r = norm * torch.sin(zr[:, None] * gamma[None, :])
    phi_s = norm * torch.sin(SOURCE_DEPTH * gamma)
    ranges = s["dr"] * torch.arange(1, nr + 1, dtype=torch.float64)
    conv = lambda x: x.to(dt).contiguous().to(device)  # noqa: E731
    return conv(phi_r), conv(phi_s), conv(kr), conv(ki), conv(ranges)


def reference(phi_r: torch.Tensor, phi_s: torch.Tensor, kr: torch.Tensor, ki: torch.Tensor,
              ranges: torch.Tensor) -> tuple:
    k = kr.double().to(torch.complex128) + 1j * ki.double()
    r = ranges.double()
    hank = (phi_s.double() / torch.sqrt(kr.double()))[:, None] * torch.exp(1j * k[:, None] * r[None, :])
    p = phi_r.double().to(torch.complex128) @ hank
    p = p * (math.cos(math.pi / 4) + 1j * math.sin(math.pi / 4)) / torch.sqrt(8.0 * math.pi * r)[None, :]
    return p.real.to(phi_r.dtype), p.imag.to(phi_r.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m, nz, nr = s["M"], s["NZ"], s["NR"]
    return {"bytes": 4 * nz * m + 12 * m + 4 * nr + 8 * nz * nr, "flops": 4 * nz * m * nr}
