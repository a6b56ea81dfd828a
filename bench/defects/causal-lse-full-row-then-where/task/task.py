"""Causal log-sum-exp of each attention-score row, lse[i] = log sum_{j <= i} exp(scale * s[i, j]), over stored scores [B*H, S, S] (the softmax statistics an eager / Megatron causal attention keeps for its backward)."""
import torch

META = {
    "name": "causal_row_lse",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-4}, "bfloat16": {"atol": 1e-3, "rtol": 1e-4},
                  "float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"BH": 2, "S": 96},
        "ragged": {"BH": 3, "S": 1531},
        "large": {"BH": 16, "S": 4096},
    },
    "baseline_notes": "One program per score row looping over 512-column chunks with an online max and sum in "
                      "fp32, up to the chunk that holds the diagonal (tl.where cuts the future columns there), so "
                      "chunks of future columns are never read; one fp32 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [BH, S, S] of normals scaled by 4 (raw q.k for head dim 16) and the softmax scale 0.25."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    scores = (4 * torch.randn(s["BH"], s["S"], s["S"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    return scores.to(device), 0.25


def reference(scores: torch.Tensor, scale: float) -> torch.Tensor:
    S = scores.shape[-1]
    future = torch.ones(S, S, dtype=torch.bool, device=scores.device).triu(1)
    return torch.logsumexp((scale * scores.float()).masked_fill(future, float("-inf")), dim=-1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    kept = s["BH"] * s["S"] * (s["S"] + 1) // 2
    return {"bytes": kept * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["BH"] * s["S"],
            "flops": 4 * kept}
