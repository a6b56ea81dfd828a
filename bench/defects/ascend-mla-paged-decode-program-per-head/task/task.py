"""MLA decode attention over the paged latent cache (DeepSeek-V2/V3 absorbed MLA, vLLM / SGLang
triton decode_attention for MLA): every query head attends to one shared latent KV per token.
q [B, H, DL + DR] is the absorbed query (q_nope @ W_UK, then q_pe); each cache row is [c_kv (DL) | k_pe (DR)];
scores = q . row * sm_scale over the first seq_lens[b] tokens, out = softmax(scores) @ c_kv, fp16 [B, H, DL]."""
import math

import torch

META = {
    "name": "mla_paged_decode_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "H": 4, "DL": 32, "DR": 16, "PAGE": 16, "L": 70},
        "ragged": {"B": 3, "H": 20, "DL": 64, "DR": 16, "PAGE": 16, "L": 149},
        "large": {"B": 32, "H": 16, "DL": 512, "DR": 64, "PAGE": 128, "L": 4096},
    },
    "baseline_notes": "Split-KV (flash-decoding) in two launches: stage 1 on a (request, 16-head block, 8 KV "
                      "splits) grid, the 16 local heads as the M side of the cube matmuls against 32-token "
                      "sub-tiles of each latent page (q_nope and q_pe parts as two dots), online softmax; stage 2 "
                      "merges the splits' partial outputs by their log-sum-exp.",
    "deterministic": True,
}


def _seq_lens(s: dict) -> list:
    """Context lengths of the batch: spread between L / 2 and L, the longest exactly L."""
    B, L = s["B"], s["L"]
    return [L - (i * (L // 2)) // max(1, B - 1) for i in range(B)]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H, DL + DR], kv_cache [num_blocks, PAGE, DL + DR], block_table int32 [B, max_pages] (pages handed
    out in shuffled order), seq_lens int32 [B], sm_scale and kv_lora_rank DL."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, H, DL, DR, PAGE = s["B"], s["H"], s["DL"], s["DR"], s["PAGE"]
    lens = _seq_lens(s)
    max_pages = math.ceil(max(lens) / PAGE)
    num_blocks = B * max_pages + 3
    q = torch.randn(B, H, DL + DR, generator=g)
    kv_cache = torch.randn(num_blocks, PAGE, DL + DR, generator=g)
    block_table = torch.randperm(num_blocks, generator=g)[: B * max_pages].view(B, max_pages).to(torch.int32)
    seq_lens = torch.tensor(lens, dtype=torch.int32)
    sm_scale = 1.0 / math.sqrt(192)  # qk_nope_head_dim 128 + qk_rope_head_dim 64, as DeepSeek scales it
    return (q.to(dt).to(device), kv_cache.to(dt).to(device), block_table.to(device), seq_lens.to(device),
            sm_scale, DL)


def reference(q, kv_cache, block_table, seq_lens, sm_scale, kv_lora_rank):
    B = q.shape[0]
    page = kv_cache.shape[1]
    out = torch.empty(B, q.shape[1], kv_lora_rank, dtype=q.dtype, device=q.device)
    for b in range(B):
        n = int(seq_lens[b])
        pages = block_table[b, : (n + page - 1) // page].long()
        kv = kv_cache[pages].reshape(-1, kv_cache.shape[2])[:n].double()
        scores = q[b].double() @ kv.T * sm_scale
        out[b] = (torch.softmax(scores, dim=-1) @ kv[:, :kv_lora_rank]).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, H, DL, DR = s["B"], s["H"], s["DL"], s["DR"]
    tokens = sum(_seq_lens(s))
    return {"bytes": 2 * tokens * (DL + DR) + 2 * B * H * (2 * DL + DR) + 4 * B * s["L"] // s["PAGE"],
            "flops": 2 * H * tokens * (2 * DL + DR)}
