"""Neox rotary embedding of q and k taken from a fused qkv projection, with a cos_sin_cache indexed by position (vLLM RotaryEmbedding.forward_native after qkv.split), out of place."""
import torch

META = {
    "name": "rope_from_qkv",
    "level": 2,
    "category": "rope",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}, "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 10, "HQ": 4, "HKV": 2, "D": 32, "MAXPOS": 64},
        "ragged": {"T": 1001, "HQ": 12, "HKV": 4, "D": 64, "MAXPOS": 4096},
        "large": {"T": 16384, "HQ": 32, "HKV": 8, "D": 128, "MAXPOS": 32768},
    },
    "baseline_notes": "One program per token: q and k heads read in place from the qkv row (row stride (HQ + 2 HKV) D) "
                      "as [H, D/2] halves, cos/sin from the cache row of the token's position, rotated in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qkv [T, (HQ + 2 HKV) D], positions [T] int64, cos_sin_cache [MAXPOS, D] fp32 (cos | sin halves), HQ, HKV."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    D = s["D"]
    qkv = torch.randn(s["T"], (s["HQ"] + 2 * s["HKV"]) * D, generator=g).to(dt)
    pos = torch.randint(0, s["MAXPOS"], (s["T"],), generator=g)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2).float() / D))
    ang = torch.arange(s["MAXPOS"]).float()[:, None] * inv_freq[None, :]
    cache = torch.cat([ang.cos(), ang.sin()], dim=-1)
    return qkv.to(device), pos.to(device), cache.to(device), s["HQ"], s["HKV"]


def reference(qkv, pos, cache, hq, hkv) -> tuple:
    T = qkv.shape[0]
    D = cache.shape[1]
    cos, sin = cache[pos].float().chunk(2, dim=-1)

    def rot(x, h):
        x = x.reshape(T, h, D).float()
        x1, x2 = x[..., : D // 2], x[..., D // 2:]
        c, s = cos[:, None, :], sin[:, None, :]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(qkv.dtype).reshape(T, h * D)

    return rot(qkv[:, : hq * D], hq), rot(qkv[:, hq * D:(hq + hkv) * D], hkv)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["T"] * (s["HQ"] + s["HKV"]) * s["D"]
    return {"bytes": 2 * n * item + 8 * s["T"] + 4 * s["T"] * s["D"], "flops": 3 * n}
