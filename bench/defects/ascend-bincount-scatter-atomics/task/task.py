"""Count occurrences of each non-negative integer (torch.bincount with minlength), as in
FlagGems bincount and the per-expert token counts of MoE routing; a local task for the
scatter-atomics defect case."""
import torch

META = {
    "name": "bincount",
    "level": 1,
    "category": "reduction",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 5000, "B": 64},
        "ragged": {"N": 100_003, "B": 100},
        "large": {"N": 16 * 1024 * 1024, "B": 256},
    },
    "baseline_notes": "One program per 4096-value block: a histogram of the block on chip "
                      "(tl.histogram), then one contiguous atomic add of the B counts; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """int32 values in [0, B) with a skewed (Zipf-like) distribution, and the bin count B."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(s["N"], generator=g)
    x = (u * u * s["B"]).to(torch.int32).clamp_(max=s["B"] - 1)
    return x.to(device), s["B"]


def reference(x: torch.Tensor, bins: int) -> torch.Tensor:
    return torch.bincount(x.long(), minlength=bins).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 4 * s["B"], "flops": s["N"]}
