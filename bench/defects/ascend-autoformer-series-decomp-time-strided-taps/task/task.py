"""Autoformer series decomposition (layers/Autoformer_EncDec.py series_decomp, moving_avg kernel 25).

trend = AvgPool1d(kernel_size=25, stride=1) over the time axis of x [B, L, D] after replicate
padding of 12 steps at each end (front = x[:, :1], end = x[:, -1:]); seasonal = x - trend.
Returns (seasonal, trend), both [B, L, D].
"""
import torch

KERNEL = 25

META = {
    "name": "autoformer_series_decomp",
    "level": 2,
    "category": "time-series",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "L": 40, "D": 24},
        "ragged": {"B": 3, "L": 53, "D": 37},
        "large": {"B": 32, "L": 768, "D": 512},
    },
    "baseline_notes": "Persistent grid of min(items, 40) programs over (batch, 16-step time block, 256-channel block) "
                      "tiles [time, channel] with channels contiguous; 25 masked tap loads accumulated in fp32 plus the "
                      "replicate-padding terms from the first/last time step; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, D]: decoder hidden states (Autoformer d_model channels), a trend plus noise."""
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.linspace(0, 6.0, L)[None, :, None]
    x = torch.randn(B, L, D, generator=g) + torch.sin(t * torch.rand(1, 1, D, generator=g) * 3.0)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> tuple:
    pad = (KERNEL - 1) // 2
    xd = x.double()
    xp = torch.cat([xd[:, :1].repeat(1, pad, 1), xd, xd[:, -1:].repeat(1, pad, 1)], dim=1)
    trend = torch.nn.functional.avg_pool1d(xp.permute(0, 2, 1), KERNEL, stride=1).permute(0, 2, 1)
    return (xd - trend).to(x.dtype), trend.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["D"]
    return {"bytes": 3 * 4 * n, "flops": (KERNEL + 3) * n}
