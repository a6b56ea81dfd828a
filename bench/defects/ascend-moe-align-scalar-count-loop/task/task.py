"""Tokens routed to each expert (the counting stage of vLLM's moe_align_block_size): from the
router's top-k expert ids [T, K] count how many (token, slot) pairs go to each of E experts.
A local task for the MoE-count defect case."""
import torch

META = {
    "name": "moe_expert_counts",
    "level": 2,
    "category": "sort",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 300, "K": 2, "E": 8},
        "ragged": {"T": 3001, "K": 6, "E": 60},
        "large": {"T": 65536, "K": 8, "E": 256},
    },
    "baseline_notes": "Stage 1: one program per slice of cdiv(T*K, E) ids, a tl.histogram per "
                      "1024-id chunk, one contiguous store of E partial counts; stage 2: one "
                      "program sums the E partial rows; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Distinct expert ids per token (a top-k of random router scores) and the expert count E."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    scores = torch.rand(s["T"], s["E"], generator=g)
    ids = scores.topk(s["K"], dim=-1).indices.to(torch.int32)
    return ids.to(device), s["E"]


def reference(topk_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    return torch.bincount(topk_ids.flatten().long(), minlength=num_experts).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["T"] * s["K"] + 4 * s["E"], "flops": s["T"] * s["K"]}
