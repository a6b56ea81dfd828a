"""Sliding-window paged decode attention (a local layer of Gemma-3): one new token per sequence
attends to the keys of its own paged KV cache that lie inside the window, positions
seq_len - window .. seq_len - 1. q [B, HQ, D]; k/v cache [num_blocks, PAGE, HKV, D] reached through
block_table [B, max_blocks]; seq_lens [B] int32; GQA. Output o [B, HQ, D] bf16."""
import math

import torch

META = {
    "name": "swa_paged_decode_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "CTX": 72, "WINDOW": 24, "HQ": 4, "HKV": 2, "D": 32, "PAGE": 16},
        "ragged": {"B": 3, "CTX": 101, "WINDOW": 37, "HQ": 6, "HKV": 2, "D": 64, "PAGE": 16},
        "large": {"B": 16, "CTX": 16384, "WINDOW": 1024, "HQ": 16, "HKV": 8, "D": 256, "PAGE": 16},
    },
    "baseline_notes": "Grid (sequence, KV head): the GQA group's q heads as a padded [16, D] tile, key tiles of "
                      "32-64 tokens gathered through the block table starting at the window's first tile, "
                      "QK^T and PV as tl.dot, online softmax in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k_cache, v_cache, block_table, seq_lens, window. Sequence lengths lie in [3/4 CTX, CTX]; the
    pages of all sequences are shuffled through the pool."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, CTX, HQ, HKV, D, PAGE = s["B"], s["CTX"], s["HQ"], s["HKV"], s["D"], s["PAGE"]
    seq_lens = torch.randint(3 * CTX // 4, CTX + 1, (B,), generator=g)
    seq_lens[0] = CTX
    max_blocks = (CTX + PAGE - 1) // PAGE
    num_blocks = B * max_blocks
    block_table = torch.randperm(num_blocks, generator=g).reshape(B, max_blocks)
    dg = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn(B, HQ, D, generator=dg, device=device, dtype=dt)
    k_cache = torch.randn(num_blocks, PAGE, HKV, D, generator=dg, device=device, dtype=dt)
    v_cache = torch.randn(num_blocks, PAGE, HKV, D, generator=dg, device=device, dtype=dt)
    return (q, k_cache, v_cache, block_table.to(torch.int32).to(device), seq_lens.to(torch.int32).to(device),
            s["WINDOW"])


def reference(q, k_cache, v_cache, block_table, seq_lens, window):
    B, HQ, D = q.shape
    PAGE, HKV = k_cache.shape[1], k_cache.shape[2]
    out = torch.empty_like(q)
    for b in range(B):
        n = int(seq_lens[b])
        pos = torch.arange(max(0, n - window), n, device=q.device)
        blocks = block_table[b, pos // PAGE].long()
        k = k_cache[blocks, pos % PAGE].float().repeat_interleave(HQ // HKV, dim=1)   # [W, HQ, D]
        v = v_cache[blocks, pos % PAGE].float().repeat_interleave(HQ // HKV, dim=1)
        s = torch.einsum("hd,whd->hw", q[b].float(), k) / math.sqrt(D)
        out[b] = torch.einsum("hw,whd->hd", torch.softmax(s, dim=-1), v).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, W, HQ, HKV, D = s["B"], s["WINDOW"], s["HQ"], s["HKV"], s["D"]
    return {"bytes": 2 * (2 * B * HQ * D + 2 * B * W * HKV * D) + 4 * B * W // s["PAGE"],
            "flops": 4 * B * HQ * W * D}
