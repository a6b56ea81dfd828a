"""One first-order upwind refraction step in directional space (WAVEWATCH III W3KTP1, the PR1 scheme).

Refraction turns the wave energy of every spectral bin (frequency k, direction j) of a sea point with
the turning rate WW3 derives from the depth gradient,
    c_theta(k, theta) = sigma_k / sinh(min(2 k d, KDMAX)) * (sin(theta) dd/dx - cos(theta) dd/dy),
evaluated at the bin faces theta_j +- dtheta/2. The direction axis is periodic, so bin 0's upwind
neighbour is bin NTH-1 and vice versa. With face fluxes
    F_{j+1/2} = max(c+, 0) E_j + min(c+, 0) E_{j+1},   F_{j-1/2} = max(c-, 0) E_{j-1} + min(c-, 0) E_j
the new spectrum is E_j - dt/dtheta (F_{j+1/2} - F_{j-1/2}). Spectra are stored as WW3 orders them,
E[point, k, j] with the direction index fastest; wn[point, k] is WW3's WN array (k from the linear
dispersion relation at the point's depth).
"""
import math

import torch

META = {
    "name": "ww3_refraction_pr1",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 6, "NK": 10, "NTH": 12},
        "ragged": {"P": 11, "NK": 13, "NTH": 18},
        "large": {"P": 32768, "NK": 50, "NTH": 24},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over sea points; each point's whole "
                      "spectrum is one [next_pow2(NK), next_pow2(NTH)] tile. The periodic neighbours "
                      "E_{j-1} and E_{j+1} are two more loads of the same rows shifted by one column, "
                      "with the single wrapped column (j = NTH-1 resp. 0) loaded per row and put in "
                      "place with tl.where; turning rates computed in-kernel; no autotune.",
    "deterministic": True,
}
KDMAX = 30.0
GRAV = 9.806


def _wavenumbers(sig: torch.Tensor, depth: torch.Tensor) -> torch.Tensor:
    """Linear dispersion sigma^2 = g k tanh(k d) solved by Newton iterations (fp64), [P, NK]."""
    s, d = sig[None, :], depth[:, None]
    k = s * s / GRAV / torch.tanh((s * s / GRAV * d).clamp(min=1e-6)).sqrt()
    for _ in range(30):
        t = torch.tanh(k * d)
        f = GRAV * k * t - s * s
        df = GRAV * t + GRAV * k * d * (1.0 - t * t)
        k = k - f / df
    return k


def _spectra(P: int, f: torch.Tensor, th: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """JONSWAP frequency spectra x cos^2s spreading with random peak, height and mean direction (fp64)."""
    fp = 0.06 + 0.14 * torch.rand(P, 1, generator=g, dtype=torch.float64)
    alpha = 0.004 + 0.012 * torch.rand(P, 1, generator=g, dtype=torch.float64)
    width = torch.where(f[None, :] <= fp, 0.07, 0.09)
    peak = 3.3 ** torch.exp(-((f[None, :] - fp) ** 2) / (2.0 * width ** 2 * fp ** 2))
    ef = alpha * GRAV ** 2 * (2 * math.pi) ** -4 * f[None, :] ** -5 * torch.exp(-1.25 * (fp / f[None, :]) ** 4) * peak
    thm = 2 * math.pi * torch.rand(P, 1, generator=g, dtype=torch.float64)
    spread = 2.0 + 8.0 * torch.rand(P, 1, generator=g, dtype=torch.float64)
    dirs = torch.cos(0.5 * (th[None, :] - thm)).abs() ** (2 * spread)
    dirs = dirs / (dirs.sum(-1, keepdim=True) * (th[1] - th[0]))
    return ef[:, :, None] * dirs[:, None, :]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """E [P, NK, NTH], depth [P], dd/dx [P], dd/dy [P], wn [P, NK], sigma [NK], dtheta, dt/dtheta."""
    s = META["sizes"][size]
    P, NK, NTH = s["P"], s["NK"], s["NTH"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = 0.035 * 1.07 ** torch.arange(NK, dtype=torch.float64)        # WW3 multi_1: XFR 1.07, f1 0.035 Hz
    sig = 2 * math.pi * f
    dth = 2 * math.pi / NTH
    th = dth * torch.arange(NTH, dtype=torch.float64)
    depth = torch.exp(math.log(10.0) + math.log(40.0) * torch.rand(P, generator=g, dtype=torch.float64))
    dddx = 0.004 * torch.randn(P, generator=g, dtype=torch.float64)
    dddy = 0.004 * torch.randn(P, generator=g, dtype=torch.float64)
    wn = _wavenumbers(sig, depth)
    spec = _spectra(P, f, th, g)
    dt_refr = 50.0                                                      # refraction sub-step, s
    cast = lambda x: x.to(dt).to(device)
    return (cast(spec), cast(depth), cast(dddx), cast(dddy), cast(wn), cast(sig), dth, dt_refr / dth)


def reference(E, depth, dddx, dddy, wn, sig, dth, dtdth):
    e = E.double()
    NTH = e.shape[-1]
    kd = (2.0 * wn.double() * depth.double()[:, None]).clamp(max=KDMAX)
    frk = sig.double()[None, :] / torch.sinh(kd)                      # [P, NK]
    thp = (torch.arange(NTH, dtype=torch.float64, device=e.device) + 0.5) * dth
    thm = thp - dth
    gx, gy = dddx.double()[:, None, None], dddy.double()[:, None, None]
    cp = frk[:, :, None] * (torch.sin(thp) * gx - torch.cos(thp) * gy)
    cm = frk[:, :, None] * (torch.sin(thm) * gx - torch.cos(thm) * gy)
    ep = torch.roll(e, -1, dims=-1)
    em = torch.roll(e, 1, dims=-1)
    fp = cp.clamp(min=0) * e + cp.clamp(max=0) * ep
    fm = cm.clamp(min=0) * em + cm.clamp(max=0) * e
    return (e - dtdth * (fp - fm)).to(E.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["NK"] * s["NTH"]
    return {"bytes": 8 * n + 4 * s["P"] * (s["NK"] + 3), "flops": 14 * n}
