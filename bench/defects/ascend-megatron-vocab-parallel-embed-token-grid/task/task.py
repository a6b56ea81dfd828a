"""Megatron-LM VocabParallelEmbedding forward on one tensor-parallel rank (MindSpeed on Atlas A2).

The rank holds rows [vocab_start, vocab_end) of the word-embedding table. Tokens whose id falls
outside the shard get a zero row (the all-reduce across the TP group fills them in from the rank
that owns them); the others get their row of the shard: out[t] = weight[ids[t] - vocab_start].
"""
import torch

META = {
    "name": "vocab_parallel_embedding",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0},
                  "float16": {"atol": 0.0, "rtol": 0.0},
                  "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"T": 48, "V": 1000, "TP": 4, "RANK": 1, "H": 64},
        "ragged": {"T": 77, "V": 3001, "TP": 3, "RANK": 2, "H": 96},
        "large": {"T": 8192, "V": 128256, "TP": 8, "RANK": 3, "H": 4096},
    },
    "baseline_notes": "Grid = the 40 vector cores; each program walks its tokens (stride = programs): scalar id "
                      "load, in-shard test, one row copy of next_power_of_2(H) or a zero row; no autotune.",
    "deterministic": True,
}


def _shard(s: dict) -> tuple[int, int]:
    per_rank = -(-s["V"] // s["TP"])
    start = s["RANK"] * per_rank
    return start, min(start + per_rank, s["V"])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ids [T] int32 over the full vocabulary, this rank's weight shard [vocab_end - vocab_start, H],
    vocab_range [2] int32 = (vocab_start, vocab_end)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    start, end = _shard(s)
    ids = torch.randint(0, s["V"], (s["T"],), generator=g, dtype=torch.int64)
    ids[: s["T"] // 8] = torch.randint(start, end, (s["T"] // 8,), generator=g)
    ids[-1], ids[-2], ids[-3] = start, end - 1, start - 1
    weight = torch.randn(end - start, s["H"], generator=g) * 0.02
    rng = torch.tensor([start, end], dtype=torch.int32)
    return ids.to(torch.int32).to(device), weight.to(dt).to(device), rng.to(device)


def reference(ids: torch.Tensor, weight: torch.Tensor, vocab_range: torch.Tensor) -> torch.Tensor:
    start, end = int(vocab_range[0]), int(vocab_range[1])
    ids = ids.long()
    outside = (ids < start) | (ids >= end)
    local = (ids - start).masked_fill(outside, 0)
    out = torch.nn.functional.embedding(local, weight)
    return out.masked_fill(outside[:, None], 0.0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    start, end = _shard(s)
    rows_read = s["T"] * (end - start) / s["V"]
    return {"bytes": int(4 * s["T"] + item * s["H"] * (s["T"] + rows_read)), "flops": 0}
