"""Conformer relative-position self-attention probabilities (NeMo RelPositionMultiHeadAttention /
ESPnet RelPositionMultiHeadedAttention): rel_shift the position scores, add the content scores,
scale by 1/sqrt(d_k), mask padded key frames and softmax.

matrix_ac [B, H, T, T] = (q + pos_bias_u) k^T, matrix_bd [B, H, T, 2T - 1] = (q + pos_bias_v) p^T over
the 2T - 1 relative positions T-1 .. -(T-1); rel_shift(matrix_bd)[i, j] = matrix_bd[i, T - 1 - i + j].
Output the attention probabilities [B, H, T, T] in the input dtype (0 on padded keys)."""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "conformer_rel_pos_attn_softmax",
    "level": 2,
    "category": "softmax",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 4e-3, "rtol": 1.6e-2}},
    "sizes": {
        "small": {"B": 2, "H": 2, "T": 24, "D": 16},
        "ragged": {"B": 3, "H": 4, "T": 77, "D": 64},
        "large": {"B": 32, "H": 8, "T": 512, "D": 64},
    },
    "baseline_notes": "One program per (batch, head, query) row, BLOCK = next_power_of_2(T): loads the content "
                      "row and the shifted window of the position row straight from matrix_bd, fp32 "
                      "masked softmax, one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """matrix_ac, matrix_bd (scores of d_k-wide heads), key lengths [B] int64 (the longest = T), scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    b, h, t, d = s["B"], s["H"], s["T"], s["D"]
    ac = torch.randn(b, h, t, t, generator=g) * math.sqrt(d)
    bd = torch.randn(b, h, t, 2 * t - 1, generator=g) * math.sqrt(d) * 0.5
    lengths = torch.randint(int(0.4 * t), t + 1, (b,), generator=g)
    lengths[0] = t
    return ac.to(dt).to(device), bd.to(dt).to(device), lengths.to(device), 1.0 / math.sqrt(d)


def _rel_shift(x: torch.Tensor) -> torch.Tensor:
    b, h, qlen, pos_len = x.shape
    x = F.pad(x, pad=(1, 0))
    x = x.view(b, h, -1, qlen)
    return x[:, :, 1:].reshape(b, h, qlen, pos_len)


def reference(matrix_ac: torch.Tensor, matrix_bd: torch.Tensor, lengths: torch.Tensor, scale: float) -> torch.Tensor:
    t = matrix_ac.shape[-1]
    bd = _rel_shift(matrix_bd.float())[..., :t]
    scores = (matrix_ac.float() + bd) * scale
    pad = torch.arange(t, device=lengths.device)[None, :] >= lengths[:, None]
    scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
    return torch.softmax(scores, dim=-1).to(matrix_ac.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B"] * s["H"] * s["T"]
    return {"bytes": 2 * rows * s["T"] * 3 + 8 * s["B"], "flops": 6 * rows * s["T"]}
