"""Causal grouped-query attention forward for prefill: q [B, HQ, S, D], k/v [B, HK, S, D]
(query head h reads KV head h // (HQ // HK)), softmax(q k^T / sqrt(D)) v with a causal mask.
Output [B, HQ, S, D] in the input dtype."""
import math

import torch

META = {
    "name": "gqa_causal_prefill_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "HQ": 2, "HK": 1, "S": 48, "D": 32},
        "ragged": {"B": 1, "HQ": 4, "HK": 2, "S": 77, "D": 32},
        "large": {"B": 1, "HQ": 32, "HK": 8, "S": 4096, "D": 128},
    },
    "baseline_notes": "Grid of 20 cube cores over (batch, head, 128-query block) tasks; flash-attention "
                      "online softmax, bf16 operands into both tl.dot calls with fp32 accumulation, "
                      "key blocks past the diagonal skipped.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(s["B"], s["HQ"], s["S"], s["D"], generator=g).to(dt).to(device)
    k = torch.randn(s["B"], s["HK"], s["S"], s["D"], generator=g).to(dt).to(device)
    v = torch.randn(s["B"], s["HK"], s["S"], s["D"], generator=g).to(dt).to(device)
    return q, k, v


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    group = q.shape[1] // k.shape[1]
    kd = k.double().repeat_interleave(group, dim=1)
    vd = v.double().repeat_interleave(group, dim=1)
    s = q.double() @ kd.transpose(-1, -2) / math.sqrt(q.shape[-1])
    n = q.shape[2]
    causal = torch.ones(n, n, dtype=torch.bool, device=q.device).tril()
    s = s.masked_fill(~causal, float("-inf"))
    return (torch.softmax(s, dim=-1) @ vd).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    io = 2 * s["B"] * s["S"] * s["D"] * (2 * s["HQ"] + 2 * s["HK"])
    flops = 2 * 2 * s["B"] * s["HQ"] * s["S"] * s["S"] * s["D"] // 2
    return {"bytes": io, "flops": flops}
