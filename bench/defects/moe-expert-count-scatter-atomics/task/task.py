"""MoE routing histogram: tokens per expert from the router's top-k expert ids (first step of vLLM moe_align_block_size)."""
import torch

META = {
    "name": "moe_expert_counts",
    "level": 2,
    "category": "reduction",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 200, "k": 2, "E": 8},
        "ragged": {"T": 10007, "k": 6, "E": 60},
        "large": {"T": 262144, "k": 8, "E": 64},
    },
    "baseline_notes": "Each program histograms 4096 ids on chip with tl.histogram and adds its E counts "
                      "to the global counters with one vector atomic; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """topk_ids [T, k] int32, k distinct experts per token drawn with a skewed (Zipf-like) popularity; E int."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    popularity = 1.0 / torch.arange(1, s["E"] + 1, dtype=torch.float64) ** 0.8
    ids = torch.multinomial(popularity.expand(s["T"], -1), s["k"], replacement=False, generator=g)
    return ids.to(torch.int32).to(device), s["E"]


def reference(topk_ids: torch.Tensor, num_experts: int) -> torch.Tensor:
    return torch.bincount(topk_ids.flatten().long(), minlength=num_experts).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (s["T"] * s["k"] + s["E"]), "flops": s["T"] * s["k"]}
