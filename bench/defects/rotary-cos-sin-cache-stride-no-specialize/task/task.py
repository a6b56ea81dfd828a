"""Neox rotary embedding of q and k read from a fused qkv projection, with a precomputed cos_sin_cache indexed by position."""
import torch

META = {
    "name": "rotary_cos_sin_cache",
    "level": 2,
    "category": "rope",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"T": 19, "HQ": 4, "HK": 2, "D": 32, "MAXPOS": 64},
        "ragged": {"T": 1001, "HQ": 8, "HK": 2, "D": 64, "MAXPOS": 2048},
        "large": {"T": 16384, "HQ": 32, "HK": 8, "D": 128, "MAXPOS": 32768},
    },
    "baseline_notes": "One program per token rotating all its q heads and then its k heads as [heads, D/2] tiles; "
                      "cos and sin from cache[position]; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions [T] int64, qkv [T, (HQ + 2 HK) D] fused projection output, cos_sin_cache [MAXPOS, D] fp32, HQ, HK."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    D = s["D"]
    inv_freq = 1.0 / (500000.0 ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
    freqs = torch.outer(torch.arange(s["MAXPOS"], dtype=torch.float32), inv_freq)
    cache = torch.cat([freqs.cos(), freqs.sin()], dim=-1)
    positions = torch.randint(0, s["MAXPOS"], (s["T"],), generator=g)
    qkv = torch.randn(s["T"], (s["HQ"] + 2 * s["HK"]) * D, generator=g).to(dt)
    return positions.to(device), qkv.to(device), cache.to(device), s["HQ"], s["HK"]


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.float().chunk(2, dim=-1)
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).to(x.dtype)


def reference(positions, qkv, cos_sin_cache, num_q_heads: int, num_kv_heads: int) -> tuple:
    T = qkv.shape[0]
    D = cos_sin_cache.shape[1]
    q, k, _ = qkv.split([num_q_heads * D, num_kv_heads * D, num_kv_heads * D], dim=-1)
    cos, sin = cos_sin_cache[positions].chunk(2, dim=-1)
    return (_rotate(q.reshape(T, num_q_heads, D), cos[:, None], sin[:, None]),
            _rotate(k.reshape(T, num_kv_heads, D), cos[:, None], sin[:, None]))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * (s["HQ"] + s["HK"]) * s["D"]
    return {"bytes": 2 * item * n + 4 * s["T"] * s["D"] + 8 * s["T"], "flops": 3 * n}
