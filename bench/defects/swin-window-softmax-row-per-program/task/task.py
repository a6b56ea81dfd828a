"""Swin window-attention probabilities: softmax(scores + relative_position_bias[head]) over the 49 keys of a 7x7 window."""
import torch

META = {
    "name": "window_softmax_bias",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}, "bfloat16": {"atol": 1e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"BW": 6, "H": 3, "N": 49},
        "ragged": {"BW": 333, "H": 3, "N": 49},
        "large": {"BW": 8192, "H": 4, "N": 49},
    },
    "baseline_notes": "32 rows per program as a [32, 64] tile (row -> head and query by division by constexpr "
                      "N and H), bias rows gathered per row, softmax in fp32; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [BW, H, N, N] (q k^T * scale per window), bias [H, N, N] (the gathered relative-position table)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scores = torch.randn(s["BW"], s["H"], s["N"], s["N"], generator=g) * 2.0
    bias = torch.randn(s["H"], s["N"], s["N"], generator=g)
    return scores.to(dt).to(device), bias.to(dt).to(device)


def reference(scores: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.softmax(scores.float() + bias.float()[None], dim=-1).to(scores.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["BW"] * s["H"] * s["N"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 5 * n}
