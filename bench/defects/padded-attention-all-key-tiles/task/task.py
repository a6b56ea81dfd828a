"""Bidirectional (encoder) attention over a right-padded batch: softmax(Q K^T / sqrt(D)) V with the keys at or past
each sequence's length masked out (HF BERT / RoBERTa attention_mask) and the padding query rows written as zeros
(as flash-attn's unpad / pad_input path returns them). q, k, v, out in the [B, H, S, D] layout of SDPA."""
import math

import torch

META = {
    "name": "padded_encoder_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 3, "H": 2, "S": 160, "D": 32, "min_len": 1},
        "ragged": {"B": 3, "H": 3, "S": 200, "D": 64, "min_len": 5},
        "large": {"B": 32, "H": 16, "S": 1024, "D": 64, "min_len": 128},
    },
    "baseline_notes": "Grid (cdiv(S, 128), H, B); each program reads its sequence's length, writes zeros and stops "
                      "when its 128 query rows are all padding, else runs the online-softmax loop over the 64-key "
                      "blocks below the length only (bf16 tl.dot, fp32 accumulators, exp2); 4 warps, 2 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, S, D]; seq_lens [B] int32 (attention_mask.sum(-1)), uniform in [min_len, S]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    q, k, v = (torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))
    seq_lens = torch.randint(s["min_len"], s["S"] + 1, (s["B"],), generator=g, dtype=torch.int32)
    return q, k, v, seq_lens.to(device)


def reference(q, k, v, seq_lens) -> torch.Tensor:
    B, H, S, D = q.shape
    pos = torch.arange(S, device=q.device)
    valid = pos[None, :] < seq_lens[:, None].long()                     # [B, S]
    scores = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(D)
    scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
    out = torch.softmax(scores, dim=-1) @ v.float()
    out = out.masked_fill(~valid[:, None, :, None], 0.0)
    return out.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    n = s["B"] * s["H"] * s["S"] * s["D"]
    mean_sq_len = (s["S"] ** 3 - s["min_len"] ** 3) / (3 * max(s["S"] - s["min_len"], 1))
    return {"bytes": 4 * n * item, "flops": int(4 * s["B"] * s["H"] * mean_sq_len * s["D"])}
