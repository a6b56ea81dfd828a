"""Min-p sampling filter on LM logits (vLLM's min_p sampler): tokens whose probability is below
min_p times the row's top probability get -inf, i.e. logit < max_logit + log(min_p).
A local task for the data-mask store case."""
import math

import torch

META = {
    "name": "min_p_filter",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 8, "V": 1000},
        "ragged": {"B": 33, "V": 32003},
        "large": {"B": 256, "V": 152064},
    },
    "baseline_notes": "One program per row, 4096-column chunks: a max pass, then a pass storing "
                      "tl.where(x < max + log(min_p), -inf, x) under the bounds mask; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """logits [B, V] (scaled normals, so a real share of each row falls below the cut) and min_p."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    logits = 3 * torch.randn(s["B"], s["V"], generator=g)
    return logits.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), 0.05


def reference(logits: torch.Tensor, min_p: float) -> torch.Tensor:
    cut = logits.amax(dim=-1, keepdim=True) + torch.tensor(math.log(min_p), dtype=logits.dtype)
    return logits.masked_fill(logits < cut, float("-inf"))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["B"] * s["V"] * item, "flops": 2 * s["B"] * s["V"]}
