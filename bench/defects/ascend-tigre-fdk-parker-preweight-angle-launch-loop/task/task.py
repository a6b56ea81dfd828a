"""FDK pre-weighting of short-scan cone-beam projections: cosine weight times Parker weight (TIGRE FDK, ASTRA FDK_PreWeight).

Before the ramp filter, FDK multiplies every detector pixel (u, v) of projection a by
    w_cos(u, v)  = DSD / sqrt(DSD^2 + u^2 + v^2)                 (cosine of the ray's angle to the central ray)
and, for a short scan over beta in [0, pi + 2 delta], by Parker's redundancy weight of the ray's fan angle
gamma = atan(u / DSD):
    w_p = sin^2(pi/4 * beta / (delta - gamma))                    for 0 <= beta < 2 (delta - gamma)
        = 1                                                        for 2 (delta - gamma) <= beta <= pi - 2 gamma
        = sin^2(pi/4 * (pi + 2 delta - beta) / (delta + gamma))    for pi - 2 gamma < beta <= pi + 2 delta
        = 0                                                        beyond,
with delta the fan half-angle of the detector. Detector coordinates are pixel centres,
u = (j - (U - 1)/2) du, v = (i - (V - 1)/2) dv. Projections are [angles, V, U] (TIGRE order), fp32.
Inputs: proj, beta [A] (source angles), gamma [U] (fan angle of each detector column, a geometry
constant), geo = [DSD, du, dv, delta]. TIGRE's default geometry: DSD 1536 mm, 512 x 512 pixels of 0.8 mm.
"""
import math

import torch

META = {
    "name": "fdk_parker_preweight",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"A": 24, "V": 4, "U": 32},
        "ragged": {"A": 29, "V": 5, "U": 37},
        "large": {"A": 360, "V": 512, "U": 512},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) that loop over [angle, block of "
                      "4096 // BU detector rows x the whole row] tiles: the cosine weight from the pixel "
                      "coordinates, the Parker weight from the angle and the column fan angles, one load "
                      "and one store per tile; no autotune.",
    "deterministic": True,
}

DSD = 1536.0
DET_SIZE = 409.6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """proj [A, V, U] (line integrals), beta [A], gamma [U], geo [4] = (DSD, du, dv, delta)."""
    s = META["sizes"][size]
    A, V, U = s["A"], s["V"], s["U"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    du, dv = DET_SIZE / U, DET_SIZE / V
    delta = math.atan(DET_SIZE / 2 / DSD)
    beta = torch.linspace(0.0, math.pi + 2 * delta, A, dtype=torch.float64)
    u = (torch.arange(U, dtype=torch.float64) - (U - 1) / 2) * du
    gamma = torch.atan(u / DSD)
    # smooth bumps of attenuation along the detector plus noise: line integrals of a patient
    vv = torch.linspace(-1, 1, V, dtype=torch.float64)[None, :, None]
    uu = torch.linspace(-1, 1, U, dtype=torch.float64)[None, None, :]
    shift = 0.3 * torch.sin(beta)[:, None, None]
    proj = 4.0 * torch.clamp(1 - (uu - shift) ** 2 / 0.6 - vv ** 2 / 1.5, min=0.0) ** 0.5
    proj = proj + 0.05 * torch.rand(A, V, U, generator=g, dtype=torch.float64)
    geo = torch.tensor([DSD, du, dv, delta], dtype=torch.float64)
    return tuple(t.to(dt).to(device) for t in (proj, beta, gamma, geo))


def reference(proj: torch.Tensor, beta: torch.Tensor, gamma: torch.Tensor, geo: torch.Tensor) -> torch.Tensor:
    A, V, U = proj.shape
    dsd, du, dv, delta = (float(x) for x in geo.double().cpu())
    p = proj.double().cpu()
    b = beta.double().cpu()[:, None]
    gm = gamma.double().cpu()[None, :]
    u = (torch.arange(U, dtype=torch.float64) - (U - 1) / 2) * du
    v = (torch.arange(V, dtype=torch.float64) - (V - 1) / 2) * dv
    w_cos = dsd / torch.sqrt(dsd ** 2 + u[None, :] ** 2 + v[:, None] ** 2)          # [V, U]
    rise = torch.sin(math.pi / 4 * b / (delta - gm)) ** 2
    fall = torch.sin(math.pi / 4 * (math.pi + 2 * delta - b) / (delta + gm)) ** 2
    w_p = torch.where(b < 2 * (delta - gm), rise,
                      torch.where(b <= math.pi - 2 * gm, torch.ones_like(rise),
                                  torch.where(b <= math.pi + 2 * delta, fall, torch.zeros_like(rise))))
    out = p * w_cos[None, :, :] * w_p[:, None, :]
    return out.to(proj.dtype).to(proj.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["A"] * s["V"] * s["U"]
    return {"bytes": 8 * n + 4 * (s["A"] + s["U"]), "flops": 20 * n}
