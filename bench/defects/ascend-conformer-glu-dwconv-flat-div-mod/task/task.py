"""Conformer convolution module, middle part (WeNet ConvolutionModule): GLU -> depthwise conv1d -> BatchNorm -> SiLU.

Input is the output of pointwise_conv1 kept channels-last, h [B, T, 2C]; GLU takes a = h[..., :C],
g = h[..., C:]; the depthwise conv has K taps, zero 'same' padding K // 2 and its bias; BatchNorm is in
eval mode. Weights are prepared once at load time: depthwise taps tap-major w [K, C], conv bias and
BatchNorm folded into per-channel fp32 scale/shift (y = conv * scale + shift).
"""
import torch

META = {
    "name": "conformer_glu_dwconv_bn_silu",
    "level": 2,
    "category": "speech",
    "dtypes": ["bfloat16", "float32"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "T": 24, "C": 32, "K": 15},
        "ragged": {"B": 3, "T": 37, "C": 48, "K": 15},
        "large": {"B": 32, "T": 750, "C": 512, "K": 15},
    },
    "baseline_notes": "Persistent grid of 40 programs looping over (utterance, 16-frame, 128-channel) tiles; "
                      "per tap one [16, 128] load of each GLU half at the shifted frames, fp32 accumulate, "
                      "folded BatchNorm and SiLU in the epilogue.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """h [B, T, 2C], w [K, C] fp32, scale [C] fp32, shift [C] fp32."""
    s = META["sizes"][size]
    B, T, C, K = s["B"], s["T"], s["C"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = torch.randn(B, T, 2 * C, generator=g)
    w = torch.randn(K, C, generator=g) / K ** 0.5
    scale = 1.0 + 0.1 * torch.randn(C, generator=g)
    shift = 0.1 * torch.randn(C, generator=g)
    return h.to(dt).to(device), w.to(device), scale.to(device), shift.to(device)


def reference(h: torch.Tensor, w: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    K, C = w.shape
    x = torch.nn.functional.glu(h.double(), dim=-1).transpose(1, 2)            # [B, C, T]
    y = torch.nn.functional.conv1d(x, w.double().t().unsqueeze(1), padding=K // 2, groups=C)
    y = y * scale.double()[:, None] + shift.double()[:, None]
    return torch.nn.functional.silu(y).transpose(1, 2).contiguous().to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, T, C, K = s["B"], s["T"], s["C"], s["K"]
    elt = torch.finfo(getattr(torch, dtype or META["dtypes"][0])).bits // 8
    return {"bytes": 3 * B * T * C * elt + (K + 2) * C * 4, "flops": B * T * C * (2 * K + 12)}
