"""MoE dispatch permute (vLLM moe_permute / MegaBlocks gather): token rows copied into expert-sorted order, out[i] = x[sorted_ids[i] // topk], given the routing's sorted (token, k) ids and per-expert offsets."""
import torch

META = {
    "name": "moe_permute",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 40, "H": 96, "E": 8, "K": 2},
        "ragged": {"T": 1001, "H": 1000, "E": 16, "K": 2},
        "large": {"T": 16384, "H": 4096, "E": 64, "K": 2},
    },
    "baseline_notes": "One launch over all T * topk destination rows, one row per program (H-wide block, masked); "
                      "4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H]; top-k routing (skewed expert popularity) as sorted_ids [T * K] (token * K + k, sorted by expert,
    stable) and expert_offsets [E + 1] int64; topk."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["H"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    popularity = torch.rand(s["E"], generator=g) ** 2 + 0.05
    experts = torch.multinomial(popularity.expand(s["T"], -1), s["K"], replacement=False, generator=g).flatten()
    sorted_ids = torch.sort(experts, stable=True).indices
    offsets = torch.zeros(s["E"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(torch.bincount(experts, minlength=s["E"]), 0)
    return x.to(device), sorted_ids.to(device), offsets.to(device), s["K"]


def reference(x: torch.Tensor, sorted_ids: torch.Tensor, expert_offsets: torch.Tensor, topk: int) -> torch.Tensor:
    return x[sorted_ids // topk]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["T"] * s["K"]
    return {"bytes": 2 * rows * s["H"] * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * rows, "flops": 0}
