"""Hyena implicit long-convolution filter generation (HyenaDNA HyenaFilter.filter, Safari hyena.py).

The filter of every channel is an MLP of a positional embedding z[l] = [t, cos(f w l), -sin(f w l)]
(Linear -> Sin -> Linear -> Sin -> Linear -> Sin -> Linear, Sin(x) = sin(freq * x)) multiplied by
the exponential modulation window exp(-t * |delta_d|); the result k[L, D] is the long filter that
the FFT convolution then applies.
"""
import math

import torch

META = {
    "name": "hyena_implicit_filter",
    "level": 2,
    "category": "sequence",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"L": 40, "E": 5, "F": 64, "D": 64},
        "ragged": {"L": 77, "E": 5, "F": 64, "D": 96},
        "large": {"L": 1000002, "E": 5, "F": 64, "D": 256},
    },
    "baseline_notes": "Programs over 128-position tiles: the 5-wide embedding layer as 5 rank-1 updates, the two "
                      "64x64 Sin layers and the 64xD output layer (64-column chunks) as tl.dot on the tile, decay window in the "
                      "epilogue, fp32 output; 8 warps, no autotune.",
    "deterministic": True,
}


def _positional_embedding(L: int, E: int) -> torch.Tensor:
    t = torch.linspace(0, 1, L, dtype=torch.float64)[:, None]
    bands = (E - 1) // 2
    w = 2 * math.pi * torch.linspace(0, L - 1, L, dtype=torch.float64)[:, None] / L
    f = torch.linspace(1e-4, bands - 1, bands, dtype=torch.float64)[None, :]
    z = torch.exp(-1j * f * w)
    return torch.cat([t, z.real, z.imag], dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [L, E]; w_in [E, F], b_in [F]; w_mid [2, F, F], b_mid [2, F]; freq [3, F]; w_out [F, D]; deltas [D]."""
    s = META["sizes"][size]
    L, E, F, D = s["L"], s["E"], s["F"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])

    def uniform(shape, fan_in):
        return (torch.rand(*shape, generator=g, dtype=torch.float64) * 2 - 1) / math.sqrt(fan_in)

    z = _positional_embedding(L, E)
    w_in, b_in = uniform((E, F), E), uniform((F,), E)
    w_mid, b_mid = uniform((2, F, F), F), uniform((2, F), F)
    freq = 1.0 + 0.1 * torch.randn(3, F, generator=g, dtype=torch.float64)
    w_out = uniform((F, D), F)
    # ExponentialModulation: fast_decay_pct 0.3, slow_decay_pct 1.5, target 1e-2
    deltas = torch.linspace(math.log(1e-2) / 1.5, math.log(1e-2) / 0.3, D, dtype=torch.float64)
    return tuple(x.to(dt).to(device) for x in (z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas))


def reference(z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas) -> torch.Tensor:
    z64 = z.double()
    h = torch.sin(freq[0].double() * (z64 @ w_in.double() + b_in.double()))
    for i in range(2):
        h = torch.sin(freq[i + 1].double() * (h @ w_mid[i].double() + b_mid[i].double()))
    k = h @ w_out.double()
    k = k * torch.exp(-z64[:, :1] * deltas.double().abs()[None, :])
    return k.to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    L, E, F, D = s["L"], s["E"], s["F"], s["D"]
    weights = E * F + 2 * F * F + 3 * F + 3 * F + F * D + D
    return {"bytes": 4 * (L * E + L * D + weights), "flops": 2 * L * (E * F + 2 * F * F + F * D)}
