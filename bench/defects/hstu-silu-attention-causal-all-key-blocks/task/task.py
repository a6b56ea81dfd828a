"""HSTU pointwise (SiLU) causal attention over jagged user-history sequences (Meta generative-recommenders)."""
import math

import torch

META = {
    "name": "hstu_jagged_silu_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 3, "H": 2, "D": 32, "N": 48},
        "ragged": {"B": 4, "H": 3, "D": 40, "N": 75},
        "large": {"B": 16, "H": 4, "D": 128, "N": 4096},
    },
    "baseline_notes": "Grid (query block, sequence x head) over the padded max_seq_len; programs past their sequence "
                      "return. Each program keeps its bf16 query tile, walks key/value tiles up to the causal "
                      "diagonal, silu(alpha * q k^T) / max_seq_len in fp32, bf16 P V tl.dot into an fp32 "
                      "accumulator. Tiles 128x64, 8 warps, 2 stages at long sequences; no autotune.",
    "deterministic": True,
}


def _lengths(s: dict, g: torch.Generator) -> torch.Tensor:
    """Jagged history lengths in [N/2, N]; the first sequence is the longest, so max_seq_len = N."""
    n = s["N"]
    lengths = torch.randint(n // 2, n + 1, (s["B"],), generator=g)
    lengths[0] = n
    return lengths


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [total_tokens, H, D], seq_offsets [B + 1] int64, max_seq_len, alpha."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = _lengths(s, g)
    offsets = torch.zeros(s["B"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    total = int(offsets[-1])
    q, k, v = (torch.randn(total, s["H"], s["D"], generator=g).to(dt).to(device) for _ in range(3))
    alpha = 1.0 / math.sqrt(s["D"])
    return q, k, v, offsets.to(device), s["N"], alpha


def reference(q, k, v, seq_offsets, max_seq_len, alpha):
    out = torch.empty_like(q)
    bounds = seq_offsets.tolist()
    for start, end in zip(bounds[:-1], bounds[1:], strict=True):
        n = end - start
        qs, ks, vs = (t[start:end].float().transpose(0, 1) for t in (q, k, v))
        scores = alpha * torch.matmul(qs, ks.transpose(1, 2))
        p = torch.nn.functional.silu(scores) / max_seq_len
        p = p * torch.ones(n, n, device=q.device).tril()
        out[start:end] = torch.matmul(p, vs).transpose(0, 1).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lengths = _lengths(s, torch.Generator().manual_seed(0))
    total = int(lengths.sum())
    causal_pairs = int((lengths * (lengths + 1) // 2).sum())
    return {"bytes": 4 * total * s["H"] * s["D"] * 2 + 8 * (s["B"] + 1),
            "flops": 4 * causal_pairs * s["H"] * s["D"]}
