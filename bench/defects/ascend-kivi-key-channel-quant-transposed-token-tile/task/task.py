"""KIVI per-channel key quantisation (2-bit, groups of 32 tokens) of a prefilled key cache, packed along tokens.

keys [B, H, T, D] fp16 (T a multiple of 32: KIVI keeps the residual tail in full precision and
quantises whole groups only). For every (b, h, group of 32 tokens, channel d): mn = min, mx = max
over the group's 32 tokens, scale = max((mx - mn) / 3, 1e-6), q = clamp(floor((x - mn) / scale + 0.5), 0, 3)
in fp32; 16 consecutive tokens of a channel are packed into one int32 word (token j of the word in
bits 2j..2j+1). Outputs: code [B, H, T/16, D] int32, scale [B, H, T/32, D] fp32, mn [B, H, T/32, D] fp32
(channel-last, the layout the cache keeps for the attention kernel).
"""
import torch

GROUP = 32
BITS = 2
FEAT = 32 // BITS

META = {
    "name": "kivi_key_channel_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "H": 2, "T": 64, "D": 64},
        "ragged": {"B": 2, "H": 3, "T": 96, "D": 80},
        "large": {"B": 4, "H": 32, "T": 4096, "D": 128},
    },
    "baseline_notes": "Grid of 40 programs (vector cores) looping over (b*h, token group) tiles: loads the group's "
                      "[32 tokens, D] block contiguously, transposes it on chip to [D, 32], min/max per channel, "
                      "quantises to 2 bits, packs 16 tokens per int32 with shifts and a sum, transposes the "
                      "[D, 2] words back and stores them channel-last; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Key states [B, H, T, D] with a few outlier channels, as pre-RoPE / post-RoPE keys have."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    k = torch.randn(s["B"], s["H"], s["T"], s["D"], generator=g)
    k[..., :: max(1, s["D"] // 6)] *= 8.0
    return (k.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(key: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    B, H, T, D = key.shape
    x = key.float().reshape(B, H, T // GROUP, GROUP, D)
    mn = x.amin(dim=3)
    mx = x.amax(dim=3)
    scale = torch.clamp((mx - mn) / 3.0, min=1e-6)
    q = torch.floor((x - mn[:, :, :, None]) / scale[:, :, :, None] + 0.5).clamp(0, 3).long()
    q = q.reshape(B, H, T // FEAT, FEAT, D)
    shifts = (torch.arange(FEAT, device=key.device) * BITS).view(1, 1, 1, FEAT, 1)
    words = (q << shifts).sum(dim=3)
    words = torch.where(words >= 2**31, words - 2**32, words).to(torch.int32)
    return words, scale, mn


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["T"] * s["D"]
    return {"bytes": 2 * n + 4 * n // FEAT + 8 * n // GROUP, "flops": 8 * n}
