"""Causal ALiBi attention bias [H, S, S]: slope_h * (j - i) for keys j <= i, -inf above the diagonal (HF BLOOM / MPT build_alibi_tensor with the causal mask folded in)."""
import math

import torch

META = {
    "name": "alibi_causal_bias",
    "level": 2,
    "category": "attention",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-6}},
    "sizes": {
        "small": {"H": 4, "S": 96},
        "ragged": {"H": 12, "S": 1531},
        "large": {"H": 16, "S": 2048},
    },
    "baseline_notes": "2-D grid (head * query row, 1024-key block): slope * (j - i) where j <= i, else -inf, "
                      "one store per element into a torch.empty output; no autotune.",
    "deterministic": True,
}


def alibi_slopes(heads: int) -> torch.Tensor:
    """The ALiBi head slopes 2^(-8 i / n) of the paper (n the nearest power of two, interleaved beyond it)."""
    n = 2 ** math.floor(math.log2(heads))
    slopes = [2 ** (-8 * (i + 1) / n) for i in range(n)]
    extra = [2 ** (-4 * (2 * i + 1) / n) for i in range(heads - n)]
    return torch.tensor(slopes + extra, dtype=torch.float32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The slopes [H] (fp32) and the sequence length S."""
    s = META["sizes"][size]
    return alibi_slopes(s["H"]).to(device), s["S"]


def reference(slopes: torch.Tensor, seq_len: int) -> torch.Tensor:
    pos = torch.arange(seq_len, device=slopes.device)
    rel = (pos[None, :] - pos[:, None]).float()
    bias = slopes[:, None, None] * rel[None]
    return bias.masked_fill(rel[None] > 0, float("-inf"))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["S"] * s["S"]
    return {"bytes": 4 * n + 4 * s["H"], "flops": 2 * n}
