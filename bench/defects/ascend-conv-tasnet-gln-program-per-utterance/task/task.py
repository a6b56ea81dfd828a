"""Global layer normalisation (gLN) of a Conv-TasNet TCN block (asteroid GlobLN, Luo & Mesgarani 2019).

x [B, N, T] (channels N, encoder frames T, time contiguous) is normalised with one mean and one
variance per utterance, taken over both channels and time, then scaled and shifted per channel:
y = gamma[n] * (x - mean_b) / sqrt(var_b + eps) + beta[n], eps = 1e-8.
"""
import torch

EPS = 1e-8

META = {
    "name": "conv_tasnet_global_layernorm",
    "level": 2,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "N": 8, "T": 50},
        "ragged": {"B": 3, "N": 12, "T": 77},
        "large": {"B": 4, "N": 512, "T": 32000},
    },
    "baseline_notes": "Two launches on a persistent grid of 40 programs (the vector cores): the first walks the "
                      "B*N channel rows p, p + 40, ... in 4096-frame tiles and writes each row's fp32 sum and sum "
                      "of squares; the second, per utterance, reduces that utterance's N row partials to the mean "
                      "and rstd and normalises rows p, p + 40, ... with the per-channel gamma and beta; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, N, T], gamma [N], beta [N]."""
    s = META["sizes"][size]
    B, N, T = s["B"], s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = torch.rand(B, 1, 1, generator=g) * 1.5 + 0.5
    x = torch.randn(B, N, T, generator=g) * scale + 0.2 * torch.randn(B, N, 1, generator=g)
    gamma = 1.0 + 0.1 * torch.randn(N, generator=g)
    beta = 0.1 * torch.randn(N, generator=g)
    return x.to(device=device, dtype=dt), gamma.to(device=device, dtype=dt), beta.to(device=device, dtype=dt)


def reference(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor) -> torch.Tensor:
    xd = x.double()
    mean = xd.mean(dim=(1, 2), keepdim=True)
    var = ((xd - mean) ** 2).mean(dim=(1, 2), keepdim=True)
    y = gamma.double()[None, :, None] * (xd - mean) / torch.sqrt(var + EPS) + beta.double()[None, :, None]
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"] * s["T"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item + 2 * s["N"] * item, "flops": 7 * n}
