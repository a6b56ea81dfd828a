"""masked_fill: out = x with `value` where a boolean mask is set (torch.Tensor.masked_fill), as
in FlagGems masked_fill and attention-mask preparation. A local task for the data-mask case."""
import torch

META = {
    "name": "masked_fill",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}, "bfloat16": {"atol": 0, "rtol": 0},
                  "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 10_000},
        "ragged": {"N": 1_000_003},
        "large": {"N": 32 * 1024 * 1024},
    },
    "baseline_notes": "Flat kernel, BLOCK=4096: load x and the mask, tl.where(mask, value, x), one "
                      "store under the bounds mask; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N], a random boolean mask [N] (about 30% set) and the fill value."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    mask = torch.rand(n, generator=g) < 0.3
    return x.to(device), mask.to(device), -10000.0


def reference(x: torch.Tensor, mask: torch.Tensor, value: float) -> torch.Tensor:
    return x.masked_fill(mask, value)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": n * (2 * item + 1), "flops": 0}
