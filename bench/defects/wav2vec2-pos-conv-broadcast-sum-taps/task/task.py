"""wav2vec 2.0 / HuBERT convolutional relative positional embedding, fused with the encoder's residual:
out = x + GELU(SamePad(Conv1d(C, C, K, padding=K // 2, groups=G)(x^T)))^T.

x [B, T, C] bfloat16 (feature-projected frames), weight [C, C // G, K] (the effective weight-normed conv
weight), bias [C]. With an even K the conv yields T + 1 frames and SamePad drops the last, so
out[b, t, o] = x[b, t, o] + gelu(bias[o] + sum_k sum_i w[o, i, k] * x[b, t + k - K // 2, g(o) * C/G + i])."""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "wav2vec2_pos_conv_embed",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "T": 24, "C": 32, "G": 2, "K": 8},
        "ragged": {"B": 2, "T": 53, "C": 96, "G": 2, "K": 10},
        "large": {"B": 8, "T": 1499, "C": 1024, "G": 16, "K": 128},
    },
    "baseline_notes": "3-D grid (64-frame block, group, batch): per tap, per 16-channel slice of the group's inputs, "
                      "one [64, 16] x [16, CG] tl.dot into an fp32 [64, CG] accumulator (weights pre-packed per "
                      "group as [K, C/G in, C/G out]); bias, erf GELU and the residual in the epilogue; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    b, t, c, groups, k = s["B"], s["T"], s["C"], s["G"], s["K"]
    x = torch.randn(b, t, c, generator=g)
    w = torch.randn(c, c // groups, k, generator=g) / math.sqrt(c // groups * k)
    bias = 0.1 * torch.randn(c, generator=g)
    return x.to(dt).to(device), w.to(dt).to(device), bias.to(dt).to(device), groups


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, groups: int) -> torch.Tensor:
    k = weight.shape[-1]
    h = F.conv1d(x.float().transpose(1, 2), weight.float(), bias.float(), padding=k // 2, groups=groups)
    if k % 2 == 0:
        h = h[:, :, :-1]
    return (x.float() + F.gelu(h).transpose(1, 2)).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frames = s["B"] * s["T"]
    return {"bytes": 2 * (2 * frames * s["C"] + s["C"] * (s["C"] // s["G"]) * s["K"] + s["C"]),
            "flops": 2 * frames * s["C"] * (s["C"] // s["G"]) * s["K"]}
