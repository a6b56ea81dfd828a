"""One decode step of attention over gpt-fast's static KV cache (Llama-3 GQA, CUDA-graph friendly).

gpt-fast keeps one KV cache per layer, allocated once at max_seq_length: k_cache, v_cache [B, H_kv, S_max, D].
At decode the new token's k/v have already been written at input_pos, and the query (one token per sequence)
attends to cache positions 0..input_pos (gpt-fast's causal_mask[input_pos] row):
    out[b, h] = softmax(q[b, h] . k_cache[b, h // G, :pos+1]^T / sqrt(D)) @ v_cache[b, h // G, :pos+1]
with G = H_q / H_kv query heads per KV head. input_pos stays a device tensor (the step is replayed as a CUDA
graph), so kernels read it on the device; cache rows past input_pos hold stale values from earlier requests.
"""
import math

import torch

META = {
    "name": "static_cache_decode_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "HQ": 4, "HKV": 2, "D": 32, "S_MAX": 64, "pos": 21},
        "ragged": {"B": 3, "HQ": 6, "HKV": 2, "D": 32, "S_MAX": 90, "pos": 50},
        "large": {"B": 4, "HQ": 32, "HKV": 8, "D": 128, "S_MAX": 8192, "pos": 1536},
    },
    "baseline_notes": "Split-KV (flash-decoding): grid (B*H_q, cache splits of 256 keys); each program reads "
                      "input_pos on the device and walks its split in 64-key tiles with an online softmax "
                      "(exp2, running max/sum in fp32), loading K/V rows only at positions <= input_pos; a "
                      "second launch merges the partial (max, sum, acc) of every split per head. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, H_q, D], k_cache / v_cache [B, H_kv, S_max, D], input_pos int32 [1] (device tensor)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["B"], s["HQ"], s["D"], generator=g)
    k_cache = torch.randn(s["B"], s["HKV"], s["S_MAX"], s["D"], generator=g)
    v_cache = torch.randn(s["B"], s["HKV"], s["S_MAX"], s["D"], generator=g)
    input_pos = torch.tensor([s["pos"]], dtype=torch.int32)
    return (q.to(dt).to(device), k_cache.to(dt).to(device), v_cache.to(dt).to(device),
            input_pos.to(device))


def reference(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
              input_pos: torch.Tensor) -> torch.Tensor:
    B, HQ, D = q.shape
    group = HQ // k_cache.shape[1]
    n = int(input_pos[0]) + 1
    k = k_cache[:, :, :n].float().repeat_interleave(group, dim=1)
    v = v_cache[:, :, :n].float().repeat_interleave(group, dim=1)
    scores = torch.einsum("bhd,bhnd->bhn", q.float(), k) / math.sqrt(D)
    out = torch.einsum("bhn,bhnd->bhd", torch.softmax(scores, dim=-1), v)
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["pos"] + 1
    return {"bytes": 2 * (2 * s["B"] * s["HKV"] * n * s["D"] + 2 * s["B"] * s["HQ"] * s["D"]),
            "flops": 4 * s["B"] * s["HQ"] * n * s["D"]}
