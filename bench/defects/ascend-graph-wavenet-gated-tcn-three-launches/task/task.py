"""Gated temporal convolution of a Graph WaveNet layer (Wu et al., IJCAI 2019), channels-last, fp16 inference.

Each WaveNet layer applies two dilated causal convolutions with kernel (1, 2) over time, filter_convs and
gate_convs (residual_channels -> dilation_channels = 32 -> 32), and gates them:
    f[b, t, n, :] = x[b, t, n, :] @ Wf[0] + x[b, t + d, n, :] @ Wf[1] + bf
    g[b, t, n, :] = x[b, t, n, :] @ Wg[0] + x[b, t + d, n, :] @ Wg[1] + bg
    out = tanh(f) * sigmoid(g),   t = 0 .. T_in - d - 1
The port keeps activations channels-last, x [B, T_in, N, C], so the (1, 2) kernels become two [C, C]
matrices per conv (tap, in channel, out channel). fp16 tensors, fp32 accumulation. Returns
[B, T_in - d, N, C] fp16.
"""
import math

import torch

META = {
    "name": "graph_wavenet_gated_tcn",
    "level": 2,
    "category": "conv",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "T": 5, "N": 7, "C": 32, "dilation": 2},
        "ragged": {"B": 3, "T": 6, "N": 13, "C": 32, "dilation": 2},
        "large": {"B": 64, "T": 12, "N": 2352, "C": 32, "dilation": 2},
    },
    "baseline_notes": "One launch: 20 programs (the A2's AI cores) loop over (batch, 256-row) tiles of the "
                      "flattened (t, n) axis; both taps of x are loaded once and feed four [256, 32] x [32, 32] "
                      "tl.dot (filter and gate, fp32 accumulate) against weights loaded once per program; "
                      "bias, tanh (as 2 sigmoid(2f) - 1), sigmoid and their product in the epilogue, one fp16 "
                      "store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, T, N, C], filter weight [2, C, C] and bias [C], gate weight [2, C, C] and bias [C], dilation."""
    s = META["sizes"][size]
    B, T, N, C = s["B"], s["T"], s["N"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, T, N, C, generator=g)
    scale = 1.0 / math.sqrt(2 * C)
    wf = torch.randn(2, C, C, generator=g) * scale
    bf = torch.randn(C, generator=g) * 0.1
    wg = torch.randn(2, C, C, generator=g) * scale
    bg = torch.randn(C, generator=g) * 0.1
    cast = lambda t: t.to(dt).to(device)  # noqa: E731
    return cast(x), cast(wf), cast(bf), cast(wg), cast(bg), s["dilation"]


def reference(x, wf, bf, wg, bg, dilation: int) -> torch.Tensor:
    xf = x.float()
    T = x.shape[1]
    early, late = xf[:, :T - dilation], xf[:, dilation:]
    f = early @ wf[0].float() + late @ wf[1].float() + bf.float()
    g = early @ wg[0].float() + late @ wg[1].float() + bg.float()
    return (torch.tanh(f) * torch.sigmoid(g)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, N, C, d = s["B"], s["T"], s["N"], s["C"], s["dilation"]
    rows = B * (T - d) * N
    return {"bytes": 2 * (B * T * N * C + rows * C + 4 * C * C + 2 * C), "flops": 8 * rows * C * C}
