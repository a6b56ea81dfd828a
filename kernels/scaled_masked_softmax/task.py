"""Megatron-LM scaled upper-triangular masked softmax: softmax(scale * scores) with a causal mask, on [B, H, S, S]."""
import torch

META = {
    "name": "scaled_masked_softmax",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 64},
        "ragged": {"B": 2, "H": 3, "S": 1000},
        "large": {"B": 4, "H": 16, "S": 2048},
    },
    "baseline_notes": "One program per score row, BLOCK = next_power_of_2(S): scale, mask columns "
                      "past the query position to -inf, fp32 softmax, store the whole row "
                      "(masked part as 0); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Attention scores [B, H, S, S] (normals scaled by 8) and the softmax scale 1/sqrt(64)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 8 * torch.randn(s["B"], s["H"], s["S"], s["S"], generator=g)
    return x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), 0.125


def reference(x: torch.Tensor, scale: float) -> torch.Tensor:
    S = x.shape[-1]
    future = torch.ones(S, S, dtype=torch.bool, device=x.device).triu(1)
    scores = (x.float() * scale).masked_fill(future, float("-inf"))
    return torch.softmax(scores, dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["B"] * s["H"] * s["S"] * s["S"]
    return {"bytes": 2 * n * item, "flops": 5 * n}
