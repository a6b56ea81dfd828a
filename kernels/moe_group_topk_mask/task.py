"""DeepSeek-V3 grouped routing mask: score each expert group by its top-2 sum, keep the top groups, zero the rest.

scores [T, E] are split into G groups of E/G experts; a group's score is the sum of its two best
expert scores; the topk_group best groups per token survive and every expert of another group
gets score 0 (the masked_fill before the final expert top-k in the HF DeepseekV3 router).
"""
import torch

META = {
    "name": "moe_group_topk_mask",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 16, "E": 64, "G": 8, "topk_group": 4},
        "ragged": {"T": 1000, "E": 160, "G": 8, "topk_group": 3},
        "large": {"T": 65536, "E": 256, "G": 8, "topk_group": 4},
    },
    "baseline_notes": "One program per token holding its scores as a [next_pow2(G), "
                      "next_pow2(E/G)] block (-inf padding): per-group max, argmax, second max; "
                      "then topk_group rounds of argmax over the group scores build the keep "
                      "mask; one masked store. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Routing scores sigmoid(logits) + correction bias [T, E], the group count and groups kept."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    scores = torch.sigmoid(torch.randn(s["T"], s["E"], generator=g))
    scores = scores + 0.05 * torch.randn(s["E"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return scores.to(device=device, dtype=dt), s["G"], s["topk_group"]


def reference(scores: torch.Tensor, n_group: int, topk_group: int) -> torch.Tensor:
    T, E = scores.shape
    grouped = scores.view(T, n_group, E // n_group)
    group_scores = grouped.topk(2, dim=-1).values.sum(dim=-1)
    group_idx = group_scores.topk(topk_group, dim=-1, sorted=False).indices
    group_mask = torch.zeros_like(group_scores).scatter_(1, group_idx, 1.0)
    keep = group_mask.unsqueeze(-1).expand(T, n_group, E // n_group).reshape(T, E)
    return scores.masked_fill(keep == 0, 0.0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["T"] * s["E"] * item, "flops": 3 * s["T"] * s["E"]}
