"""Causal scaled dot-product attention softmax(Q K^T / sqrt(d) + causal mask) V over [B, H, S, D] (GPT/LLaMA prefill)."""
import torch

META = {
    "name": "causal_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 64, "D": 32},
        "ragged": {"B": 2, "H": 3, "S": 1000, "D": 64},
        "large": {"B": 4, "H": 16, "S": 4096, "D": 128},
    },
    "baseline_notes": "Flash-attention forward: one program per 128 queries of a head, online softmax "
                      "over 64-key tiles up to the diagonal, causal mask on every tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, S, D], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    return tuple(torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    S = q.shape[-2]
    scores = (q.float() @ k.float().transpose(-1, -2)) / q.shape[-1] ** 0.5
    future = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
    p = torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1)
    return (p @ v.float()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, H, S, D = s["B"], s["H"], s["S"], s["D"]
    return {"bytes": 4 * B * H * S * D * item, "flops": 2 * B * H * S * S * D}
