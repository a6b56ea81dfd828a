"""Jagged mean pooling of sequence embeddings (TorchRec sequence features / fbgemm jagged sum
divided by the lengths): values [N, D] hold B variable-length sequences back to back, offsets [B + 1]
int32 their boundaries; out[b] = mean of values[offsets[b]:offsets[b + 1]] (0 for an empty one).
Output float32 [B, D]."""
import torch

META = {
    "name": "jagged_mean_pool",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 23, "D": 16, "mean_len": 6, "max_len": 40},
        "ragged": {"B": 97, "D": 24, "mean_len": 9, "max_len": 150},
        "large": {"B": 8192, "D": 128, "mean_len": 32, "max_len": 2048},
    },
    "baseline_notes": "Grid of the 40 vector cores, each looping over its sequences; per sequence a loop of "
                      "[64, D] tiles up to that sequence's own length, fp32 accumulate, one store of the mean.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [N, D], offsets [B + 1] int32 and max_len (the batch's longest sequence, as the
    jagged ops take it). Lengths are heavy-tailed user histories: most short, a few at the cap."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(s["B"], generator=g).clamp(min=1e-12)
    lengths = (-torch.log(u) * s["mean_len"]).round().long().clamp(0, s["max_len"])
    lengths[torch.randint(0, s["B"], (2,), generator=g)] = s["max_len"]
    lengths[torch.randint(0, s["B"], (1,), generator=g)] = 0
    offsets = torch.zeros(s["B"] + 1, dtype=torch.long)
    offsets[1:] = torch.cumsum(lengths, 0)
    values = torch.randn(int(offsets[-1]), s["D"], generator=g)
    return values.to(dt).to(device), offsets.to(torch.int32).to(device), int(lengths.max())


def reference(values: torch.Tensor, offsets: torch.Tensor, max_len: int) -> torch.Tensor:
    B = offsets.numel() - 1
    lengths = (offsets[1:] - offsets[:-1]).long()
    seg = torch.repeat_interleave(torch.arange(B, device=values.device), lengths)
    out = torch.zeros(B, values.shape[1], dtype=torch.float64, device=values.device)
    out.index_add_(0, seg, values.double())
    return (out / lengths.clamp(min=1).double()[:, None]).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["mean_len"]
    return {"bytes": 4 * n * s["D"] + 4 * (s["B"] + 1) + 4 * s["B"] * s["D"], "flops": n * s["D"]}
