"""GQA paged decode attention (vLLM / vllm-ascend decode step): one new query token per request attends
to its whole paged KV cache. q [B, Hq, D], k_cache / v_cache [num_blocks, PAGE, Hkv, D] (vLLM cache
layout), block_table [B, max_pages] int32, seq_lens [B] int32; out [B, Hq, D] in q's dtype."""
import torch

META = {
    "name": "gqa_paged_decode_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1.5e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 3, "Hq": 8, "Hkv": 2, "D": 64, "PAGE": 16, "max_len": 90},
        "ragged": {"B": 5, "Hq": 14, "Hkv": 2, "D": 128, "PAGE": 32, "max_len": 777},
        "large": {"B": 2, "Hq": 28, "Hkv": 4, "D": 128, "PAGE": 128, "max_len": 32768},
    },
    "baseline_notes": "Split-KV (flash-decoding) in two kernels: partial attention over (request, kv head, "
                      "page range) programs, enough splits for about four programs per cube core, with the "
                      "GQA group's query heads as the M side of tl.dot; then a log-sum-exp combine of the splits.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Random pages per request (a shuffled block pool), the first request at max_len, the others
    between max_len / 2 and max_len; softmax scale 1/sqrt(D)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, Hq, Hkv, D, page, max_len = s["B"], s["Hq"], s["Hkv"], s["D"], s["PAGE"], s["max_len"]
    seq_lens = torch.randint(max_len // 2, max_len + 1, (B,), generator=g)
    seq_lens[0] = max_len
    max_pages = -(-max_len // page)
    pages = [-(-int(n) // page) for n in seq_lens]
    num_blocks = sum(pages) + 3
    pool = torch.randperm(num_blocks, generator=g)
    block_table = torch.zeros(B, max_pages, dtype=torch.int32)
    used = 0
    for b, n in enumerate(pages):
        block_table[b, :n] = pool[used:used + n].to(torch.int32)
        used += n
    q = torch.randn(B, Hq, D, generator=g).to(dt)
    k_cache = torch.randn(num_blocks, page, Hkv, D, generator=g).to(dt)
    v_cache = torch.randn(num_blocks, page, Hkv, D, generator=g).to(dt)
    return (q.to(device), k_cache.to(device), v_cache.to(device), block_table.to(device),
            seq_lens.to(torch.int32).to(device), D ** -0.5)


def reference(q, k_cache, v_cache, block_table, seq_lens, sm_scale):
    B, Hq, D = q.shape
    page, Hkv = k_cache.shape[1], k_cache.shape[2]
    out = torch.empty(B, Hq, D, dtype=torch.float32, device=q.device)
    for b in range(B):
        n = int(seq_lens[b])
        blocks = block_table[b, : -(-n // page)].long()
        k = k_cache[blocks].reshape(-1, Hkv, D)[:n].float().repeat_interleave(Hq // Hkv, dim=1)
        v = v_cache[blocks].reshape(-1, Hkv, D)[:n].float().repeat_interleave(Hq // Hkv, dim=1)
        scores = torch.einsum("hd,nhd->hn", q[b].float(), k) * sm_scale
        out[b] = torch.einsum("hn,nhd->hd", torch.softmax(scores, dim=-1), v)
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    el = 2
    # expected context: first request at max_len, the rest at 3/4 of it on average
    tokens = s["max_len"] + (s["B"] - 1) * (3 * s["max_len"] // 4)
    kv = 2 * tokens * s["Hkv"] * s["D"] * el
    qo = 2 * s["B"] * s["Hq"] * s["D"] * el
    return {"bytes": kv + qo + 4 * tokens // s["PAGE"], "flops": 4 * tokens * s["Hq"] * s["D"]}
