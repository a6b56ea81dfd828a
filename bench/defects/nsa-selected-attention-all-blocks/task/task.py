"""NSA (Native Sparse Attention) selected-block branch at decode: each KV head's group of 16 query heads attends
only to the top-n selected 64-token KV blocks of its sequence (block ids given, ascending)."""
import math

import torch

META = {
    "name": "nsa_selected_block_decode_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "S": 256, "HKV": 2, "G": 16, "D": 32, "BLOCK": 64, "NSEL": 2},
        "ragged": {"B": 3, "S": 320, "HKV": 1, "G": 16, "D": 32, "BLOCK": 64, "NSEL": 4},
        "large": {"B": 16, "S": 16384, "HKV": 4, "G": 16, "D": 128, "BLOCK": 64, "NSEL": 16},
    },
    "baseline_notes": "grid (batch, kv head): the [16, D] query group, then a loop over the NSEL selected block "
                      "ids: load the [64, D] K and V tiles of that block, tl.dot scores, online softmax, tl.dot "
                      "into the accumulator.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [B, HKV * G, D], k and v caches [B, S, HKV, D], block_ids [B, HKV, NSEL] int32 (sorted)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    B, S, HKV, G, D = s["B"], s["S"], s["HKV"], s["G"], s["D"]
    q = torch.randn(B, HKV * G, D, generator=g).to(dt)
    k = torch.randn(B, S, HKV, D, generator=g).to(dt)
    v = torch.randn(B, S, HKV, D, generator=g).to(dt)
    nblk = S // s["BLOCK"]
    ids = torch.stack([torch.randperm(nblk, generator=g)[: s["NSEL"]] for _ in range(B * HKV)])
    ids = torch.sort(ids, dim=1).values.reshape(B, HKV, s["NSEL"]).to(torch.int32)
    return q.to(device), k.to(device), v.to(device), ids.to(device)


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_ids: torch.Tensor) -> torch.Tensor:
    B, HQ, D = q.shape
    HKV = k.shape[2]
    G = HQ // HKV
    nblk = block_ids.shape[2]
    block = 64
    out = torch.empty(B, HQ, D, dtype=torch.float64, device=q.device)
    for b in range(B):
        for h in range(HKV):
            tok = (block_ids[b, h].long()[:, None] * block + torch.arange(block, device=q.device)[None, :]).reshape(nblk * block)
            kk, vv = k[b, tok, h].double(), v[b, tok, h].double()
            qq = q[b, h * G:(h + 1) * G].double()
            p = torch.softmax(qq @ kk.t() / math.sqrt(D), dim=-1)
            out[b, h * G:(h + 1) * G] = p @ vv
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, HKV, G, D = s["B"], s["HKV"], s["G"], s["D"]
    kv_tokens = B * HKV * s["NSEL"] * s["BLOCK"]
    return {"bytes": 2 * 2 * kv_tokens * D + 2 * 2 * B * HKV * G * D + 4 * B * HKV * s["NSEL"],
            "flops": 4 * kv_tokens * G * D}
