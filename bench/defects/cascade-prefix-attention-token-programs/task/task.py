"""Shared-prefix pass of cascade attention (vLLM v1 FlashAttention cascade_attention, FlashInfer
MultiLevelCascadeAttentionWrapper level 0): every decode token of the batch attends, without a mask,
to the common prompt prefix held in the paged KV cache; returns the prefix output (bf16) and its
log-sum-exp [num_q_heads, num_tokens] (fp32, natural log) for the later merge with the suffix pass."""
import torch

META = {
    "name": "cascade_shared_prefix_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"N": 5, "HQ": 8, "HKV": 2, "D": 128, "L": 100, "PAGE": 16},
        "ragged": {"N": 7, "HQ": 8, "HKV": 2, "D": 128, "L": 77, "PAGE": 16},
        "large": {"N": 256, "HQ": 32, "HKV": 8, "D": 128, "L": 8192, "PAGE": 16},
    },
    "baseline_notes": "Grid (token blocks of 16, kv head) = (16, 8): the 16 tokens x 4 query heads of a GQA group "
                      "form the 64 rows of one tl.dot tile, so each 64-key K/V tile of the prefix is loaded "
                      "once per 16 tokens; online softmax in exp2, 4 warps, 2 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query [N, HQ, D], key_cache / value_cache [num_blocks, PAGE, HKV, D] (vLLM flash layout),
    prefix_block_table [ceil(L / PAGE)] int32 (scattered physical blocks), prefix_len L, softmax_scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pages = -(-s["L"] // s["PAGE"])
    num_blocks = pages + 64
    q = torch.randn(s["N"], s["HQ"], s["D"], generator=g)
    k_cache = torch.randn(num_blocks, s["PAGE"], s["HKV"], s["D"], generator=g)
    v_cache = torch.randn(num_blocks, s["PAGE"], s["HKV"], s["D"], generator=g)
    table = torch.randperm(num_blocks, generator=g)[:pages].to(torch.int32)
    scale = s["D"] ** -0.5
    return (q.to(dt).to(device), k_cache.to(dt).to(device), v_cache.to(dt).to(device), table.to(device),
            s["L"], scale)


def reference(query: torch.Tensor, key_cache: torch.Tensor, value_cache: torch.Tensor,
              prefix_block_table: torch.Tensor, prefix_len: int, softmax_scale: float) -> tuple:
    n, hq, d = query.shape
    hkv = key_cache.shape[2]
    blocks = prefix_block_table.long()
    k = key_cache[blocks].reshape(-1, hkv, d)[:prefix_len].double()
    v = value_cache[blocks].reshape(-1, hkv, d)[:prefix_len].double()
    q = query.double().view(n, hkv, hq // hkv, d)
    scores = torch.einsum("nhgd,lhd->nhgl", q, k) * softmax_scale
    lse = torch.logsumexp(scores, dim=-1)
    out = torch.einsum("nhgl,lhd->nhgd", torch.softmax(scores, dim=-1), v)
    return out.reshape(n, hq, d).to(query.dtype), lse.reshape(n, hq).t().contiguous().float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, hq, hkv, d, seq = s["N"], s["HQ"], s["HKV"], s["D"], s["L"]
    return {"bytes": 2 * n * hq * d * 2 + 2 * seq * hkv * d * 2 + 4 * n * hq + 4 * -(-seq // s["PAGE"]),
            "flops": 4 * n * hq * seq * d}
