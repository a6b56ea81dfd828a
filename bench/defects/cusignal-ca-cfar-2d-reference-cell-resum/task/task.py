"""2-D cell-averaging CFAR threshold over range-Doppler power maps (cuSignal radartools.ca_cfar, 2-D case).

For every cell under test whose full window lies inside the map, the threshold is
    alpha / N_ref * (sum of the outer (2(GD+RD)+1) x (2(GR+RR)+1) window - sum of the guard (2GD+1) x (2GR+1) window),
with N_ref the number of reference cells and alpha = N_ref * (pfa^(-1/N_ref) - 1); cells nearer the map's
edges than the window's half-size get threshold 0 (cuSignal's convention). Maps are [B, D, R] fp32 power
(|x|^2 after pulse compression and the Doppler FFT), one per receive beam.
"""
import torch

GUARD_D, GUARD_R = 2, 4
REF_D, REF_R = 4, 16
PFA = 1e-6

META = {
    "name": "ca_cfar_2d_threshold",
    "level": 2,
    "category": "signal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "D": 16, "R": 200},
        "ragged": {"B": 1, "D": 19, "R": 333},
        "large": {"B": 32, "D": 256, "R": 8192},
    },
    "cfar": {"guard": [2, 4], "reference": [4, 16], "pfa": 1e-6},
    "baseline_notes": "One program per (range tile of 256 cells, Doppler row, beam). The outer and guard "
                      "windows are summed over Doppler first (13 and 5 rows, as 16- and 8-row tiles); along "
                      "range each window's sum is the sum of the window left of the tile plus a tl.cumsum of "
                      "(entering column - leaving column), so every cell is loaded a constant number of "
                      "times; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """power [B, D, R]: exponential noise, a zero-Doppler clutter ridge and point targets."""
    s = META["sizes"][size]
    B, D, R = s["B"], s["D"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    noise = -torch.log(torch.rand(B, D, R, generator=g).clamp_min(1e-12))
    rng = torch.arange(R, dtype=torch.float32)
    clutter = 30.0 * torch.exp(-rng / (0.3 * R))
    dop = torch.arange(D, dtype=torch.float32) - D // 2
    noise = noise * (1.0 + clutter[None, None, :] * torch.exp(-(dop[None, :, None] / 1.5) ** 2))
    n_targets = max(2, B * D * R // 2000)
    b = torch.randint(0, B, (n_targets,), generator=g)
    d = torch.randint(0, D, (n_targets,), generator=g)
    r = torch.randint(0, R, (n_targets,), generator=g)
    noise[b, d, r] += 10.0 ** (torch.rand(n_targets, generator=g) * 4.0)
    return (noise.to(dt).to(device),)


def reference(power: torch.Tensor) -> torch.Tensor:
    B, D, R = power.shape
    hd, hr = GUARD_D + REF_D, GUARD_R + REF_R
    x = power.double()[:, None]
    outer = torch.nn.functional.conv2d(x, torch.ones(1, 1, 2 * hd + 1, 2 * hr + 1, dtype=x.dtype, device=x.device))
    inner = torch.nn.functional.conv2d(x, torch.ones(1, 1, 2 * GUARD_D + 1, 2 * GUARD_R + 1, dtype=x.dtype,
                                                     device=x.device))
    inner = inner[:, :, REF_D:REF_D + D - 2 * hd, REF_R:REF_R + R - 2 * hr]
    n_ref = (2 * hd + 1) * (2 * hr + 1) - (2 * GUARD_D + 1) * (2 * GUARD_R + 1)
    alpha = n_ref * (PFA ** (-1.0 / n_ref) - 1.0)
    out = torch.zeros_like(power, dtype=torch.float64)
    out[:, hd:D - hd, hr:R - hr] = alpha / n_ref * (outer - inner)[:, 0]
    return out.to(power.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["B"] * s["D"] * s["R"]
    return {"bytes": 8 * cells, "flops": 4 * cells}
