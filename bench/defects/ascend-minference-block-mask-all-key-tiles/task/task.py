"""Block-sparse attention mask estimation for long-context prefill (MInference `block_sparse` pattern style).

Queries and keys are mean-pooled over 64-token blocks (qp [H, NB, D], kp [HKV, NB, D], GQA). For
every head the pooled block logits qp @ kp^T / sqrt(D) are softmaxed over the causal key blocks
(kb <= qb); a key block is kept for a query block when its probability is at least `threshold`,
and the first (sink) block and the diagonal block are always kept. Output: int8 mask
[H, NB, NB], 1 = compute this (query block, key block) pair, 0 above the diagonal.
"""
import math

import torch

META = {
    "name": "block_sparse_mask_estimate",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"H": 4, "HKV": 2, "NB": 40, "D": 32},
        "ragged": {"H": 6, "HKV": 3, "NB": 77, "D": 64},
        "large": {"H": 32, "HKV": 8, "NB": 2048, "D": 128},
    },
    "baseline_notes": "One launch, 20 programs striding over (head, 64-query-block tile) units; per unit two loops "
                      "over the causal key-block tiles up to the diagonal (online max/sum, then probabilities, "
                      "threshold, sink and diagonal, int8 store) with tl.dot on [64, D] x [D, 64] tiles, and zero "
                      "stores for the tiles past the diagonal; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qp [H, NB, D], kp [HKV, NB, D] pooled blocks, threshold (float)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    qp = torch.randn(s["H"], s["NB"], s["D"], generator=g) * 1.5
    kp = torch.randn(s["HKV"], s["NB"], s["D"], generator=g)
    threshold = 0.02 if s["NB"] >= 512 else 0.05
    return qp.to(dt).to(device), kp.to(dt).to(device), threshold


def reference(qp: torch.Tensor, kp: torch.Tensor, threshold: float) -> torch.Tensor:
    h, nb, d = qp.shape
    kf = kp.float().repeat_interleave(h // kp.shape[0], dim=0)
    s = torch.matmul(qp.float(), kf.transpose(1, 2)) * (1.0 / math.sqrt(d))
    blk = torch.arange(nb, device=qp.device)
    causal = blk[None, :] <= blk[:, None]
    p = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
    keep = (p >= threshold) | (blk[None, :] == blk[:, None]) | (blk[None, :] == 0)
    return (keep & causal).to(torch.int8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    causal_pairs = s["NB"] * (s["NB"] + 1) // 2
    return {"bytes": 2 * (s["H"] + s["HKV"]) * s["NB"] * s["D"] + s["H"] * s["NB"] * s["NB"],
            "flops": 2 * 2 * s["H"] * causal_pairs * s["D"]}
