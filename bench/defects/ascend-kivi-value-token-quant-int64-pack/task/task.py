"""KIVI per-token value quantisation (2-bit, groups of 32 channels) of a prefilled value cache, packed along channels.

values [B, H, T, D] fp16 (D a multiple of 32). For every (b, h, t, group of 32 channels): mn = min,
mx = max over the group, scale = max((mx - mn) / 3, 1e-6), q = clamp(floor((x - mn) / scale + 0.5), 0, 3)
in fp32; 16 consecutive channels are packed into one int32 word (channel j of the word in bits
2j..2j+1). Outputs: code [B, H, T, D/16] int32, scale [B, H, T, D/32] fp32, mn [B, H, T, D/32] fp32.
"""
import torch

GROUP = 32
BITS = 2
FEAT = 32 // BITS

META = {
    "name": "kivi_value_token_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "H": 2, "T": 16, "D": 64},
        "ragged": {"B": 2, "H": 3, "T": 37, "D": 96},
        "large": {"B": 8, "H": 8, "T": 8192, "D": 128},
    },
    "baseline_notes": "The values viewed as [B*H*T*D/32 groups, 32]; a grid of min(40, tiles) programs (vector "
                      "cores) loops over tiles of 128 groups: one contiguous [128, 32] load, min/max per group, "
                      "2-bit codes, reshape to [256, 16] and an int32 shift-and-sum into words, contiguous "
                      "stores of words, scales and minima; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Value states [B, H, T, D]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    v = torch.randn(s["B"], s["H"], s["T"], s["D"], generator=g) * 1.5
    return (v.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(value: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    B, H, T, D = value.shape
    x = value.float().reshape(B, H, T, D // GROUP, GROUP)
    mn = x.amin(dim=-1)
    mx = x.amax(dim=-1)
    scale = torch.clamp((mx - mn) / 3.0, min=1e-6)
    q = torch.floor((x - mn[..., None]) / scale[..., None] + 0.5).clamp(0, 3).long()
    q = q.reshape(B, H, T, D // FEAT, FEAT)
    words = (q << (torch.arange(FEAT, device=value.device) * BITS)).sum(dim=-1)
    words = torch.where(words >= 2**31, words - 2**32, words).to(torch.int32)
    return words, scale, mn


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["T"] * s["D"]
    return {"bytes": 2 * n + 4 * n // FEAT + 8 * n // GROUP, "flops": 8 * n}
