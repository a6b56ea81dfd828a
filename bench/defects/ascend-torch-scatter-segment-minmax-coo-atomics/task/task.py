"""Segment min and max over sorted segment ids (torch_scatter segment_min_coo / segment_max_coo).

Used here for the low/high of one-minute bars from a trade tape: values are trade prices, seg the sorted bar
id of each trade. lo[s] = min(values[seg == s]), hi[s] = max(values[seg == s]); an empty bar keeps +inf / -inf.
"""
import torch

META = {
    "name": "segment_min_max_coo",
    "level": 2,
    "category": "segment",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 300, "S": 20},
        "ragged": {"N": 1001, "S": 37},
        "large": {"N": 33554432, "S": 1048576},
    },
    "baseline_notes": "40 programs (vector cores), each owning a contiguous range of 16-bar blocks: one scalar "
                      "binary search for its first trade, then per block a loop over 256-trade tiles comparing "
                      "the tile's bar ids (fp32) with the block's 16 ids, min/max in registers until a tile ends "
                      "past the block; one store per block, no atomics, no fill; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [N] float32, seg [N] int32 sorted (every bar non-empty, skewed bar sizes), num_segments S (int)."""
    s = META["sizes"][size]
    N, S = s["N"], s["S"]
    g = torch.Generator().manual_seed(seed)
    weight = torch.exp(torch.randn(S, generator=g) * 0.8)
    cdf = torch.cumsum(weight.double(), 0)
    draws = torch.rand(N - S, generator=g, dtype=torch.float64) * cdf[-1]
    extra = torch.searchsorted(cdf, draws).clamp_(max=S - 1)
    seg = torch.sort(torch.cat([torch.arange(S), extra])).values.to(torch.int32)
    base = 100.0 + torch.cumsum(torch.randn(S, generator=g) * 0.05, 0)
    values = (base[seg.long()] + torch.randn(N, generator=g) * 0.02).to(torch.float32)
    return values.to(device), seg.to(device), S


def reference(values: torch.Tensor, seg: torch.Tensor, num_segments: int) -> tuple:
    idx = seg.long()
    lo = torch.full((num_segments,), float("inf"), dtype=values.dtype, device=values.device)
    hi = torch.full((num_segments,), float("-inf"), dtype=values.dtype, device=values.device)
    lo.scatter_reduce_(0, idx, values, reduce="amin", include_self=True)
    hi.scatter_reduce_(0, idx, values, reduce="amax", include_self=True)
    return lo, hi


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] + 8 * s["S"], "flops": 2 * s["N"]}
