"""Chunk-masked encoder self-attention of a streaming (U2/U2++) Conformer, as in WeNet's
MultiHeadedAttention.forward_attention under add_optional_chunk_mask: query frame i sees key frames
[max((i // C - L) * C, 0), min((i // C + 1) * C, T)) (all left chunks when L < 0) that are also
inside the utterance (j < length). Masked scores are -inf, the attention is zeroed where masked,
so a query with no visible key gets a zero output. q, k, v, out: [B, H, T, D]."""
import math

import torch

META = {
    "name": "wenet_chunk_mask_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "H": 2, "T": 144, "D": 16, "chunk": 8, "left": 2},
        "ragged": {"B": 3, "H": 2, "T": 77, "D": 32, "chunk": 5, "left": -1},
        "large": {"B": 32, "H": 8, "T": 512, "D": 64, "chunk": 16, "left": 4},
    },
    "baseline_notes": "Flash-attention style: grid of 20 programs (AI cores) looping over (batch*head, 64-query "
                      "block) tasks; each task walks only the 64-key blocks that its queries' chunk window and the "
                      "utterance length can reach, online softmax in fp32, two tl.dot per key block.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, T, D] (encoder activations after the q/k/v projections), int32 lengths [B]
    (frames after 4x subsampling, the longest = T), chunk size C and number of left chunks L."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["T"], s["D"])
    q, k, v = (torch.randn(shape, generator=g) for _ in range(3))
    lengths = torch.randint(s["T"] // 2, s["T"] + 1, (s["B"],), generator=g)
    lengths[0] = s["T"]
    return (q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device),
            lengths.to(torch.int32).to(device), s["chunk"], s["left"])


def _chunk_mask(T: int, chunk: int, left: int, device) -> torch.Tensor:
    i = torch.arange(T, device=device)
    start = ((i // chunk - left) * chunk).clamp(min=0) if left >= 0 else torch.zeros_like(i)
    end = ((i // chunk + 1) * chunk).clamp(max=T)
    j = torch.arange(T, device=device)
    return (j[None, :] >= start[:, None]) & (j[None, :] < end[:, None])


def reference(q, k, v, lengths, chunk, left):
    B, H, T, D = q.shape
    mask = _chunk_mask(T, chunk, left, q.device)[None, None] & (
        torch.arange(T, device=q.device)[None, None, None, :] < lengths.long()[:, None, None, None])
    scores = torch.matmul(q.double(), k.double().transpose(-1, -2)) / math.sqrt(D)
    scores = scores.masked_fill(~mask, float("-inf"))
    attn = torch.softmax(scores, dim=-1).masked_fill(~mask, 0.0)
    return torch.matmul(attn, v.double()).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, C, L = s["T"], s["chunk"], s["left"]
    i = torch.arange(T)
    start = ((i // C - L) * C).clamp(min=0) if L >= 0 else torch.zeros_like(i)
    end = ((i // C + 1) * C).clamp(max=T)
    pairs = int((end - start).sum())
    return {"bytes": 4 * 2 * s["B"] * s["H"] * T * s["D"], "flops": 4 * s["B"] * s["H"] * pairs * s["D"]}
