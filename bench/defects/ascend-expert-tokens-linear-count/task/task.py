"""Expert token offsets of an MoE dispatch (torch_npu npu_moe_compute_expert_tokens): from the
expert-sorted expert ids of the routed (token, slot) pairs, the end offset of each expert's rows,
i.e. searchsorted(sorted_experts, e, right=True) for e in 0..E-1. Output int32 [E]."""
import torch

META = {
    "name": "moe_expert_token_offsets",
    "level": 2,
    "category": "sort",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 300, "K": 2, "E": 8},
        "ragged": {"T": 3001, "K": 4, "E": 60},
        "large": {"T": 16384, "K": 6, "E": 64},
    },
    "baseline_notes": "One program, all experts as a vector: a vectorised upper-bound binary search "
                      "(ceil(log2(n + 1)) steps, one gather of the midpoints per step) over the sorted ids.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sorted_experts [T * K] int32 (top-k of skewed router scores, sorted; a few experts get no
    tokens) and the expert count E."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    bias = torch.linspace(0.0, 3.0, s["E"])
    bias[torch.randperm(s["E"], generator=g)[: max(1, s["E"] // 16)]] = -1e9
    scores = torch.rand(s["T"], s["E"], generator=g) + bias
    ids = scores.topk(s["K"], dim=-1).indices.flatten()
    return ids.sort().values.to(torch.int32).to(device), s["E"]


def reference(sorted_experts: torch.Tensor, num_experts: int) -> torch.Tensor:
    e = torch.arange(num_experts, device=sorted_experts.device)
    return torch.searchsorted(sorted_experts.long(), e, right=True).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["T"] * s["K"] + 4 * s["E"], "flops": s["T"] * s["K"]}
