"""Block-causal self-attention of an autoregressive video diffusion transformer (Self-Forcing / CausVid on
Wan2.1-T2V-1.3B): the token sequence is F latent frames of frame_len tokens each, grouped into chunks of
frames_per_block frames; a query in chunk i attends to every key in chunks 0..i (bidirectional inside its chunk).
q, k, v, out: [B, L, H, D] (flash-attn layout), L = F * frame_len; softmax scale 1/sqrt(D)."""
import math

import torch

META = {
    "name": "block_causal_video_attention",
    "level": 3,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "F": 6, "frame_len": 24, "fpb": 2, "D": 32},
        "ragged": {"B": 2, "H": 3, "F": 5, "frame_len": 37, "fpb": 1, "D": 64},
        "large": {"B": 1, "H": 12, "F": 21, "frame_len": 1560, "fpb": 3, "D": 128},
    },
    "baseline_notes": "Flash-attention forward, grid (ceil(L/128), B*H), query tiles issued last-chunk first; each "
                      "program streams 64-key tiles from key 0 up to the end of the chunk of its last query row "
                      "(online softmax in exp2, bf16 tl.dot for QK^T and PV, fp32 accumulators), masking keys of "
                      "later chunks only inside the boundary tile; 8 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, L, H, D] and the chunk length in tokens (frames_per_block * frame_len)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    L = s["F"] * s["frame_len"]
    q, k, v = (torch.randn(s["B"], L, s["H"], s["D"], generator=g).to(dt).to(device) for _ in range(3))
    return q, k, v, s["fpb"] * s["frame_len"]


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_len: int) -> torch.Tensor:
    L, D = q.shape[1], q.shape[3]
    qh, kh, vh = (t.transpose(1, 2).double() for t in (q, k, v))
    out = torch.empty_like(qh)
    for lo in range(0, L, block_len):
        hi = min(lo + block_len, L)
        s = qh[:, :, lo:hi] @ kh[:, :, :hi].transpose(-1, -2) / math.sqrt(D)
        out[:, :, lo:hi] = torch.softmax(s, dim=-1) @ vh[:, :, :hi]
    return out.transpose(1, 2).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    L = s["F"] * s["frame_len"]
    blk = s["fpb"] * s["frame_len"]
    pairs = sum((min(lo + blk, L) - lo) * min(lo + blk, L) for lo in range(0, L, blk))
    return {"bytes": 4 * s["B"] * L * s["H"] * s["D"] * 2, "flops": 4 * s["B"] * s["H"] * s["D"] * pairs}
