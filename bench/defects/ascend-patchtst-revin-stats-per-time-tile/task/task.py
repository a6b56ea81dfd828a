"""PatchTST RevIN, mode 'norm' (PatchTST_supervised/layers/RevIN.py): instance normalisation of each
series of x [B, L, C] over its time axis, with the learnable affine per channel.

mean = x.mean(1), stdev = sqrt(x.var(1, unbiased=False) + eps), y = (x - mean) / stdev * w + b.
Returns (y [B, L, C], mean [B, 1, C], stdev [B, 1, C]); mean and stdev are kept for the denorm.
"""
import torch

EPS = 1e-5

META = {
    "name": "patchtst_revin_norm",
    "level": 2,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 40, "C": 24},
        "ragged": {"B": 3, "L": 57, "C": 37},
        "large": {"B": 24, "L": 336, "C": 862},
    },
    "baseline_notes": "Persistent grid of min(items, 40) programs over (batch, 128-channel block); each loops over "
                      "the series in 32-step [time, channel] tiles accumulating shifted sums and sums of squares in "
                      "fp32, then loops again to normalise and store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, C] raw series (per-channel level and scale, e.g. road occupancy), affine weight and bias [C]."""
    s = META["sizes"][size]
    B, L, C = s["B"], s["L"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    level = torch.rand(1, 1, C, generator=g) * 20.0
    scale = torch.rand(1, 1, C, generator=g) * 3.0 + 0.1
    x = level + scale * torch.randn(B, L, C, generator=g)
    w = 1.0 + 0.1 * torch.randn(C, generator=g)
    bias = 0.1 * torch.randn(C, generator=g)
    return x.to(dt).to(device), w.to(dt).to(device), bias.to(dt).to(device)


def reference(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> tuple:
    xd = x.double()
    mean = xd.mean(1, keepdim=True)
    stdev = torch.sqrt(xd.var(1, keepdim=True, unbiased=False) + EPS)
    y = (xd - mean) / stdev * w.double() + bias.double()
    return y.to(x.dtype), mean.to(x.dtype), stdev.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["C"]
    return {"bytes": 4 * 2 * n + 4 * 2 * s["B"] * s["C"] + 8 * s["C"], "flops": 7 * n}
