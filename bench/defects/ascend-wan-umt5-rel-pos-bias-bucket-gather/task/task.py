"""T5 relative position bias of Wan's umT5-XXL text encoder (T5RelativeEmbedding, bidirectional).

bias[0, h, i, j] = weight[bucket(j - i), h]: 32 buckets (16 per sign), offsets below 8 exact,
then log-spaced up to max_dist 128 (bucket 15 beyond); every one of the 24 encoder layers owns
its own [32, 64] bf16 table (shared_pos=False) and builds the [1, 64, 512, 512] bias per call.
"""
import math

import torch

META = {
    "name": "umt5_relative_position_bias",
    "level": 2,
    "category": "embedding",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"H": 3, "L": 160},
        "ragged": {"H": 5, "L": 203},
        "large": {"H": 64, "L": 512},
    },
    "baseline_notes": "Two launches on the vector cores. The first writes, per head, the bias of a "
                      "16-row band of relative offsets (rows r, columns c: offset c - r - (Lp - 16)) by "
                      "a 32-way select over the head's table entries; the second gives each of "
                      "min(40, tiles) programs 16-row output tiles and copies each tile as one "
                      "contiguous [16, L] window of its head's band. No gather, no autotune.",
    "deterministic": True,
}
NUM_BUCKETS = 32
MAX_DIST = 128


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """weight [32, H] (the nn.Embedding(num_buckets, num_heads) table) and the text length L."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    weight = torch.randn(NUM_BUCKETS, s["H"], generator=g) * (2 * NUM_BUCKETS * s["H"]) ** -0.5
    return weight.to(device=device, dtype=dt), s["L"]


def _bucket(rel: torch.Tensor) -> torch.Tensor:
    half = NUM_BUCKETS // 2
    buckets = (rel > 0).long() * half
    rel = rel.abs()
    exact = half // 2
    large = exact + (torch.log(rel.float() / exact) / math.log(MAX_DIST / exact) * (half - exact)).long()
    large = torch.min(large, torch.full_like(large, half - 1))
    return buckets + torch.where(rel < exact, rel, large)


def reference(weight: torch.Tensor, seq_len: int) -> torch.Tensor:
    pos = torch.arange(seq_len, device=weight.device)
    rel = pos[None, :] - pos[:, None]
    embeds = torch.nn.functional.embedding(_bucket(rel), weight)
    return embeds.permute(2, 0, 1).unsqueeze(0).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["H"] * s["L"] * s["L"] + NUM_BUCKETS * s["H"]) * item,
            "flops": 8 * s["H"] * s["L"] * s["L"]}
