"""ZPHI attenuation correction along range gates (Py-ART correct.calculate_attenuation_zphi, Testud et al. 2000).

Per ray of a C-band volume, with the Py-ART C-band coefficients a = 0.08 (A = a Kdp) and
b = 0.64884 (A = alpha Z^b):
    za(r)     = 10^(0.1 b dBZ(r))                                   linear reflectivity to the b
    dphi      = max over the ray of the (processed, non-negative) differential phase PhiDP
    C         = 10^(0.1 b a dphi) - 1                               self-consistency constant
    I(r)      = 0.46 b dr sum_{s >= r} za(s)                        far-end integral, I(r0) = I(0)
    A(r)      = za(r) C / (I(0) + C I(r))                           specific attenuation, dB/km
    PIA(r)    = 2 dr sum_{s <= r} A(s)                              two-way path-integrated attenuation
    Zcorr(r)  = dBZ(r) + PIA(r)
Py-ART integrates with cumulative_trapezoid; this task uses the rectangle (cumulative-sum) rule, the
whole ray as the correction interval (r0 = first gate, rm = last gate) and the ray maximum of PhiDP
for the phase shift. Returns (A [rays, gates] fp32 dB/km, Zcorr [rays, gates] fp32 dBZ).
"""
import torch

META = {
    "name": "zphi_attenuation",
    "level": 2,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"rays": 12, "gates": 200},
        "ragged": {"rays": 7, "gates": 333},
        "large": {"rays": 4320, "gates": 1000},
    },
    "baseline_notes": "One program per ray holding the whole ray (next power of two of the gates) in "
                      "registers: ray sum and PhiDP max by tl.sum / tl.max, the far-end integral and the "
                      "PIA by tl.cumsum along the gates, fp32, 4 warps, no autotune.",
    "deterministic": True,
}
A_COEF = 0.08
BETA = 0.64884
DR_KM = 0.15


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Reflectivity (dBZ) with convective cells along each ray and the PhiDP they build up."""
    s = META["sizes"][size]
    n_rays, n_gates = s["rays"], s["gates"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = torch.arange(n_gates, dtype=torch.float32)[None, :] / n_gates
    refl = torch.full((n_rays, n_gates), 5.0)
    for _ in range(4):
        centre = torch.rand(n_rays, 1, generator=g)
        width = 0.02 + 0.08 * torch.rand(n_rays, 1, generator=g)
        peak = 20.0 + 35.0 * torch.rand(n_rays, 1, generator=g)
        refl = torch.maximum(refl, peak * torch.exp(-((r - centre) ** 2) / (2 * width ** 2)))
    refl = refl + 2.0 * torch.randn(n_rays, n_gates, generator=g)
    kdp = 2e-4 * (10.0 ** (0.1 * refl)) ** 0.76          # deg/km, C-band Kdp-Z relation
    phidp = torch.cumsum(2.0 * DR_KM * kdp, dim=1) + 0.5 * torch.randn(n_rays, n_gates, generator=g).abs()
    return refl.to(device=device, dtype=dt), phidp.to(device=device, dtype=dt), A_COEF, BETA, DR_KM


def reference(refl: torch.Tensor, phidp: torch.Tensor, a_coef: float, beta: float, dr: float) -> tuple:
    z = refl.double()
    za = 10.0 ** (0.1 * beta * z)
    dphi = phidp.double().amax(dim=1, keepdim=True)
    c = 10.0 ** (0.1 * beta * a_coef * dphi) - 1.0
    far = torch.flip(torch.cumsum(torch.flip(za, [1]), dim=1), [1])     # sum_{s >= r}
    i_r = 0.46 * beta * dr * far
    spec = za * c / (i_r[:, :1] + c * i_r)
    pia = 2.0 * dr * torch.cumsum(spec, dim=1)
    return spec.to(refl.dtype), (z + pia).to(refl.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["rays"] * s["gates"]
    return {"bytes": 16 * n, "flops": 12 * n}
