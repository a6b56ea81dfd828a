"""MLA paged KV-cache write (vLLM concat_and_cache_mla): cache[slot // bs, slot % bs] = cat(kv_c, k_pe) per token."""
import torch

META = {
    "name": "concat_and_cache_mla",
    "level": 1,
    "category": "memory",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 64, "block_size": 16, "kv_lora_rank": 512, "rope_dim": 64},
        "ragged": {"T": 1008, "block_size": 16, "kv_lora_rank": 512, "rope_dim": 64},
        "large": {"T": 131072, "block_size": 64, "kv_lora_rank": 512, "rope_dim": 64},
    },
    "baseline_notes": "One program per token: the slot read once, kv_c (512) and k_pe (64) copied as two "
                      "contiguous rows to cache + slot * 576 (the cache is contiguous); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """kv_c [T, 512] latent, k_pe [T, 64] rotary key, slot_mapping [T] int64 filling every slot of a
    fresh cache of T / block_size shuffled blocks (a prefill into a new block table), block_size."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, bs = s["T"], s["block_size"]
    kv_c = torch.randn(T, s["kv_lora_rank"], generator=g).to(dt)
    k_pe = torch.randn(T, s["rope_dim"], generator=g).to(dt)
    blocks = torch.randperm(T // bs, generator=g)
    slots = (blocks[:, None] * bs + torch.arange(bs)[None, :]).reshape(-1)
    return kv_c.to(device), k_pe.to(device), slots.to(device), bs


def reference(kv_c: torch.Tensor, k_pe: torch.Tensor, slot_mapping: torch.Tensor, block_size: int) -> torch.Tensor:
    T = kv_c.shape[0]
    flat = torch.empty(T, kv_c.shape[1] + k_pe.shape[1], dtype=kv_c.dtype, device=kv_c.device)
    flat[slot_mapping] = torch.cat([kv_c, k_pe], dim=-1)
    return flat.view(T // block_size, block_size, -1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * (s["kv_lora_rank"] + s["rope_dim"])
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["T"], "flops": 0}
