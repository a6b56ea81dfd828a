"""Conformer relative-position attention weights (ESPnet RelPositionMultiHeadedAttention, rel_pos_type "latest").

With relative positional encodings of length 2T-1 (positions T-1 ... -(T-1)), ESPnet computes
    matrix_ac = (q + pos_bias_u) @ k^T          [B, H, T, T]
    matrix_bd = (q + pos_bias_v) @ p^T          [B, H, T, 2T-1]
and aligns matrix_bd to key positions with rel_shift (zero-pad one column, view [T, 2T] as [2T, T],
drop the first row, view back, keep the first T columns), which amounts to
    rel_shift(matrix_bd)[b, h, i, j] = matrix_bd[b, h, i, T - 1 - i + j].
forward_attention then masks padded keys and normalises:
    scores = (matrix_ac + rel_shift(matrix_bd)) / sqrt(d_k)
    attn   = softmax(scores.masked_fill(j >= len_b, -inf), dim=-1).masked_fill(j >= len_b, 0)
This task is that fused shift + add + scale + key-mask + softmax; the two matmuls are inputs.
"""
import math

import torch

META = {
    "name": "conformer_rel_pos_attn_weights",
    "level": 2,
    "category": "softmax",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 2, "T": 7, "DK": 64},
        "ragged": {"B": 3, "H": 2, "T": 13, "DK": 64},
        "large": {"B": 16, "H": 8, "T": 500, "DK": 64},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (batch*head, block of 8 query rows) blocks "
                      "with the whole key row in the tile (BT = next_power_of_2(T)); matrix_bd is read at the "
                      "shifted address (T-1) + i*(2T-2) + j, affine in i and j, so both inputs move as 2-D "
                      "row-strided DMA; the key mask is an fp32 compare with the length; row max, exp-sum "
                      "and normalisation along the contiguous axis; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """matrix_ac [B, H, T, T], matrix_bd [B, H, T, 2T-1], key lengths int32 [B], scale = 1/sqrt(d_k)."""
    s = META["sizes"][size]
    B, H, T = s["B"], s["H"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ac = torch.randn(B, H, T, T, generator=g) * 8.0
    bd = torch.randn(B, H, T, 2 * T - 1, generator=g) * 8.0
    lens = torch.randint(max(1, T // 2), T + 1, (B,), generator=g).to(torch.int32)
    lens[0] = T
    return ac.to(dt).to(device), bd.to(dt).to(device), lens.to(device), 1.0 / math.sqrt(s["DK"])


def reference(ac: torch.Tensor, bd: torch.Tensor, lens: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, T, _ = ac.shape
    # ESPnet rel_shift, literally
    zero_pad = torch.zeros((B, H, T, 1), device=bd.device, dtype=torch.float64)
    x_padded = torch.cat([zero_pad, bd.double()], dim=-1).view(B, H, 2 * T, T)
    shifted = x_padded[:, :, 1:].reshape(B, H, T, 2 * T - 1)[:, :, :, :T]
    scores = (ac.double() + shifted) * scale
    pad = (torch.arange(T, device=ac.device)[None, :] >= lens.long()[:, None])[:, None, None, :]
    attn = torch.softmax(scores.masked_fill(pad, float("-inf")), dim=-1).masked_fill(pad, 0.0)
    return attn.to(ac.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["T"] * s["T"]
    return {"bytes": 12 * n + 4 * s["B"], "flops": 6 * n}
