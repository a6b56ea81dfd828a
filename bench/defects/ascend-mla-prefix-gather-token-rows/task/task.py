"""Gather of the paged MLA latent cache into a contiguous buffer for chunked-prefill / prefix-cache
attention (vLLM gather_cache): for request b and context token t, out[cu[b] + t] =
cache[block_table[b, t // BS], t % BS]. Each cache entry is kv_lora_rank + qk_rope_head_dim = 576 values."""
import torch

META = {
    "name": "mla_latent_cache_gather",
    "level": 2,
    "category": "memory",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "BS": 16, "min_len": 5, "max_len": 70},
        "ragged": {"B": 5, "BS": 16, "min_len": 1, "max_len": 131},
        "large": {"B": 16, "BS": 128, "min_len": 4096, "max_len": 12288},
    },
    "baseline_notes": "Grid (requests, splits) with requests x splits ~ the vector cores; each program takes every "
                      "splits-th cache block of its request and copies it in [32, 512] + [32, 64] row tiles "
                      "(consecutive tokens of a block are contiguous in the cache and in the output).",
    "deterministic": True,
}

KV_LORA_RANK = 512
ROPE_DIM = 64


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cache [num_blocks, BS, 576] bf16, block_table [B, max_blocks] int32 (shuffled physical blocks),
    cu_seq_lens [B + 1] int32 and the total token count."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(s["min_len"], s["max_len"] + 1, (s["B"],), generator=g)
    nblk = (lens + s["BS"] - 1) // s["BS"]
    max_blocks = int(nblk.max())
    num_blocks = int(nblk.sum()) + 8
    perm = torch.randperm(num_blocks, generator=g).to(torch.int32)
    block_table = torch.zeros(s["B"], max_blocks, dtype=torch.int32)
    used = 0
    for b in range(s["B"]):
        n = int(nblk[b])
        block_table[b, :n] = perm[used:used + n]
        used += n
    cache = torch.randn(num_blocks, s["BS"], KV_LORA_RANK + ROPE_DIM, generator=g).to(torch.bfloat16)
    cu = torch.zeros(s["B"] + 1, dtype=torch.int32)
    cu[1:] = torch.cumsum(lens, 0).to(torch.int32)
    return cache.to(device), block_table.to(device), cu.to(device), int(lens.sum())


def reference(cache: torch.Tensor, block_table: torch.Tensor, cu_seq_lens: torch.Tensor,
              total_tokens: int) -> torch.Tensor:
    bs = cache.shape[1]
    rows = []
    for b in range(block_table.shape[0]):
        n = int(cu_seq_lens[b + 1] - cu_seq_lens[b])
        t = torch.arange(n, device=cache.device)
        phys = block_table[b].long()[t // bs]
        rows.append(cache[phys, t % bs])
    return torch.cat(rows, 0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    tokens = s["B"] * (s["min_len"] + s["max_len"]) // 2
    return {"bytes": 2 * 2 * tokens * (KV_LORA_RANK + ROPE_DIM), "flops": 0}
