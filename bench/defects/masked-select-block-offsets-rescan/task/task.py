"""torch.masked_select(x, mask) on 1-D tensors: the selected values, in order (stream compaction)."""
import torch

META = {
    "name": "masked_select_1d",
    "level": 1,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 9001},
        "ragged": {"N": 1000003},
        "large": {"N": 33554432},
    },
    "baseline_notes": "Per-block counts (1024 values a block), one program's exclusive tl.cumsum over the counts "
                      "(and the total, read on the host to size the output), then a compaction launch that adds "
                      "its block's offset to an in-block tl.cumsum of the mask.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] values, mask [N] bool (about 40% kept: e.g. the valid tokens of a packed batch)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    mask = torch.rand(n, generator=g) < 0.4
    return x.to(device), mask.to(device)


def reference(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.masked_select(x, mask)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 4 * n + n + int(0.4 * 4 * n), "flops": n}
