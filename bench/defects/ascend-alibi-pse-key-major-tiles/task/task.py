"""Baichuan2 ALiBi + causal bias ("pse" / atten bias for npu_fusion_attention), as Baichuan2-13B's
_gen_alibi_mask builds it: bias[h, i, j] = slope[h] * j for key j <= query i, -inf above the
diagonal. Slopes follow Baichuan2's interleaved ALiBi schedule; output fp16 [H, S, S]."""
import math

import torch

META = {
    "name": "alibi_causal_pse",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"H": 4, "S": 100},
        "ragged": {"H": 5, "S": 257},
        "large": {"H": 40, "S": 4096},
    },
    "baseline_notes": "One program per vector core looping over (head, query tile, key tile) tasks; each task "
                      "writes a [64 queries, 256 keys] fp16 tile whose rows are 512 B contiguous runs.",
    "deterministic": True,
}


def _interleave(n: int) -> list[float]:
    def pow2_slopes(m: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(m) - 3)))
        return [start * start ** i for i in range(m)]

    if math.log2(n).is_integer():
        return pow2_slopes(n)
    closest = 2 ** math.floor(math.log2(n))
    return pow2_slopes(closest) + _interleave(2 * closest)[0::2][: n - closest]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """slopes [H] fp32 and the sequence length S (seed unused: the bias is a function of H and S)."""
    s = META["sizes"][size]
    slopes = torch.tensor(_interleave(s["H"]), dtype=torch.float32)
    return slopes.to(device), s["S"]


def reference(slopes: torch.Tensor, seq_len: int) -> torch.Tensor:
    pos = torch.arange(seq_len, device=slopes.device)
    alibi = slopes[:, None, None] * pos.to(torch.float32)[None, None, :]
    future = pos[None, :] > pos[:, None]
    return alibi.masked_fill(future[None], float("-inf")).expand(-1, seq_len, -1).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["H"] * s["S"] * s["S"] + 4 * s["H"], "flops": s["H"] * s["S"] * s["S"]}
