"""MoE permutation row-id map (Megatron / MindSpeed moe_permute with a routing map, TE make_row_id_map):
from the expert-major routing map [E, T] (1 where token t is routed to expert e), the destination row of
every (expert, token) pair in the expert-sorted permuted buffer: experts' rows are laid out in expert order,
tokens in token order within an expert; -1 where not routed. Output int32 [E, T]."""
import torch

META = {
    "name": "moe_permute_row_id_map",
    "level": 2,
    "category": "scan",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 300, "E": 8, "K": 2},
        "ragged": {"T": 3001, "E": 60, "K": 4},
        "large": {"T": 16384, "E": 256, "K": 8},
    },
    "baseline_notes": "Expert counts in one launch; then programs = vector cores, experts strided over them, each "
                      "walks its row of the map in UB-sized blocks with an in-block cumsum plus a carried prefix.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """routing_map [E, T] int8 (transposed top-K of skewed router scores)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    scores = torch.rand(s["T"], s["E"], generator=g) + torch.linspace(0.0, 0.5, s["E"])
    idx = scores.topk(s["K"], dim=-1).indices
    rmap = torch.zeros(s["T"], s["E"], dtype=torch.int8).scatter_(1, idx, 1)
    return (rmap.t().contiguous().to(device),)


def reference(routing_map: torch.Tensor) -> torch.Tensor:
    m = routing_map.long()
    counts = m.sum(dim=1)
    starts = torch.cumsum(counts, 0) - counts
    within = torch.cumsum(m, dim=1) - 1
    return torch.where(m > 0, starts[:, None] + within, -1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["E"] * s["T"] + 4 * s["E"] * s["T"], "flops": 2 * s["E"] * s["T"]}
