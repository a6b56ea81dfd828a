"""Phi-3 LongRoPE rotary embedding (vLLM Phi3LongRoPEScaledRotaryEmbedding, neox style): the long-factor half of
cos_sin_cache is used when the batch's largest position reaches past original_max_position_embeddings."""
import torch

META = {
    "name": "longrope_rotary",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 16, "HQ": 4, "HK": 2, "D": 32, "MAXPOS": 64},
        "ragged": {"T": 999, "HQ": 24, "HK": 8, "D": 96, "MAXPOS": 4096},
        "large": {"T": 4096, "HQ": 32, "HK": 8, "D": 128, "MAXPOS": 32768},
    },
    "baseline_notes": "A one-program kernel writes the cache offset (0 or MAXPOS) to device memory; the rotary kernel "
                      "(one program per token, all heads) reads it; no host synchronisation.",
    "deterministic": True,
}


def _cache(maxpos: int, d: int, factor: torch.Tensor) -> torch.Tensor:
    inv_freq = 1.0 / (factor * 10000.0 ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    freqs = torch.arange(maxpos, dtype=torch.float64)[:, None] * inv_freq[None, :]
    return torch.cat([freqs.cos(), freqs.sin()], dim=-1).float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions (one prompt chunk at a random start), q [T, HQ*D], k [T, HK*D], the short+long cos/sin cache
    [2*MAXPOS, D] (fp32) and original_max_position_embeddings = MAXPOS // 2."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, D, maxpos = s["T"], s["D"], s["MAXPOS"]
    start = int(torch.randint(0, maxpos - T, (1,), generator=g))
    positions = start + torch.arange(T)
    q = torch.randn(T, s["HQ"] * D, generator=g).to(dt)
    k = torch.randn(T, s["HK"] * D, generator=g).to(dt)
    short = torch.ones(D // 2, dtype=torch.float64)
    long = 1.0 + torch.arange(D // 2, dtype=torch.float64) / (D // 2)
    cache = torch.cat([_cache(maxpos, D, short), _cache(maxpos, D, long)], dim=0)
    return positions.to(device), q.to(device), k.to(device), cache.to(device), maxpos // 2


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, d: int) -> torch.Tensor:
    t = x.shape[0]
    xh = x.double().view(t, -1, d)
    x1, x2 = xh[..., : d // 2], xh[..., d // 2:]
    c, s = cos[:, None, :], sin[:, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).view(t, -1).to(x.dtype)


def reference(positions, q, k, cache, original_max) -> tuple:
    maxpos = cache.shape[0] // 2
    d = cache.shape[1]
    offset = maxpos if int(positions.max()) + 1 > original_max else 0
    rows = cache.double()[positions + offset]
    cos, sin = rows[:, : d // 2], rows[:, d // 2:]
    return _rotate(q, cos, sin, d), _rotate(k, cos, sin, d)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * (s["HQ"] + s["HK"]) * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + s["T"] * s["D"] * 4,
            "flops": 3 * n}
