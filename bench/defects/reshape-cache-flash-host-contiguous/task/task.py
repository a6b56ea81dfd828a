"""Write the key and value of a fused qkv projection into a paged KV cache (vLLM reshape_and_cache_flash, [num_blocks, block_size, kv_heads, head_dim] layout): cache[slot[t]] = k[t], v[t]."""
import torch

META = {
    "name": "reshape_and_cache_flash",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 48, "HQ": 4, "HKV": 2, "D": 32, "BS": 16},
        "ragged": {"T": 1008, "HQ": 12, "HKV": 4, "D": 64, "BS": 16},
        "large": {"T": 16384, "HQ": 32, "HKV": 8, "D": 128, "BS": 16},
    },
    "baseline_notes": "One program per token: the slot from slot_mapping, the token's HKV * D key and value "
                      "elements read through the qkv row stride and stored at the slot's cache row; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qkv [T, (HQ + 2 HKV) D] (the fused projection output), the numbers HQ, HKV, D, the block size and slot_mapping [T] (int64, a permutation of the T cache slots)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    width = (s["HQ"] + 2 * s["HKV"]) * s["D"]
    qkv = torch.randn(s["T"], width, generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    slots = torch.randperm(s["T"], generator=g)
    return qkv.to(device), s["HQ"], s["HKV"], s["D"], s["BS"], slots.to(device)


def reference(qkv: torch.Tensor, hq: int, hkv: int, d: int, bs: int, slots: torch.Tensor):
    t = qkv.shape[0]
    k = qkv[:, hq * d:(hq + hkv) * d].reshape(t, hkv, d)
    v = qkv[:, (hq + hkv) * d:].reshape(t, hkv, d)
    key_cache = torch.empty((t // bs, bs, hkv, d), dtype=qkv.dtype, device=qkv.device)
    value_cache = torch.empty_like(key_cache)
    key_cache.view(t, hkv, d)[slots] = k
    value_cache.view(t, hkv, d)[slots] = v
    return key_cache, value_cache


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["HKV"] * s["D"]
    return {"bytes": 4 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["T"], "flops": 0}
