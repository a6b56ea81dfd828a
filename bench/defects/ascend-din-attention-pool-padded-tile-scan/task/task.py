"""DIN target-attention pooling over a padded user-behaviour sequence (DeepCTR AttentionSequencePoolingLayer).

The activation unit has already scored every behaviour against the target item (scores [B, L]); this
stage masks the padded behaviours (positions >= lengths[b]), normalises the scores with a softmax
(weight_normalization=True) and returns the attention-weighted sum of the behaviour embeddings.
"""
import math

import torch

META = {
    "name": "din_attention_pool",
    "level": 2,
    "category": "recommendation",
    "dtypes": ["bfloat16", "float32"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}, "float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 5, "L": 40, "D": 16},
        "ragged": {"B": 7, "L": 77, "D": 24},
        "large": {"B": 4096, "L": 1024, "D": 64},
    },
    "baseline_notes": "Persistent grid of 40 programs (one per AI vector core), each looping over its samples; "
                      "per sample an online softmax over 64-behaviour tiles up to the sample's length, "
                      "fp32 [64, D] accumulator reduced once at the end.",
    "deterministic": True,
}


def _lengths(B: int, L: int, g: torch.Generator) -> torch.Tensor:
    """Heavy-tailed history lengths (log-normal, median ~15% of the padded length), at least 1."""
    n = torch.exp(torch.randn(B, generator=g) + math.log(0.15 * L)).round().clamp(1, L)
    n[0] = L
    return n.to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [B, L] fp32, keys [B, L, D] (behaviour embeddings), lengths [B] int32."""
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = _lengths(B, L, g)
    scores = torch.randn(B, L, generator=g) * 2.0
    keys = torch.randn(B, L, D, generator=g) * 0.5
    return scores.to(device), keys.to(dt).to(device), lengths.to(device)


def reference(scores: torch.Tensor, keys: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L = scores.shape
    valid = torch.arange(L, device=scores.device)[None, :] < lengths[:, None].long()
    s = scores.double().masked_fill(~valid, float("-inf"))
    w = torch.softmax(s, dim=1)
    return torch.einsum("bl,bld->bd", w, keys.double()).to(keys.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    elt = torch.finfo(getattr(torch, dtype or META["dtypes"][0])).bits // 8
    rows = int(_lengths(B, L, torch.Generator().manual_seed(0)).sum())
    return {"bytes": rows * (D * elt + 4) + B * (D * elt + 4), "flops": 4 * rows * D}
