"""Depthwise causal conv1d + SiLU over the sequence of a channels-last activation (Mamba-2 causal_conv1d_fn on xBC from in_proj, [B, L, D]): y[b, l, d] = silu(bias[d] + sum_k w[d, k] x[b, l - W + 1 + k, d])."""
import torch
import torch.nn.functional as F

META = {
    "name": "causal_conv1d_channels_last",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "L": 37, "D": 24, "W": 4},
        "ragged": {"B": 3, "L": 1000, "D": 1000, "W": 4},
        "large": {"B": 4, "L": 4096, "D": 5376, "W": 4},
    },
    "baseline_notes": "Grid (batch, 64-position block, 128-channel block); W shifted [64, 128] tiles of the "
                      "channels-last input (channels contiguous), fp32 accumulate, bias, SiLU, stored channels-last; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, D] (channels last), weight [D, W] and bias [D] (fp32)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["L"], s["D"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    weight = torch.randn(s["D"], s["W"], generator=g) * 0.5
    bias = torch.randn(s["D"], generator=g) * 0.1
    return x.to(device), weight.to(device), bias.to(device)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    d, w = weight.shape
    xt = x.float().transpose(1, 2)                                        # [B, D, L]
    y = F.conv1d(F.pad(xt, (w - 1, 0)), weight[:, None, :], bias, groups=d)
    return F.silu(y).transpose(1, 2).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": (2 * s["W"] + 4) * n}
