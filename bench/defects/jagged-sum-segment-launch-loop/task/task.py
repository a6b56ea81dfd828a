"""Jagged sum: per-segment sum of the rows of a packed [total, D] values tensor, segments given by int64 offsets [B + 1] (TritonBench jagged_sum, torchrec / FBGEMM jagged tensors)."""
import torch

META = {
    "name": "jagged_sum",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32", "float16"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}, "float16": {"atol": 5e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 12, "MAXLEN": 40, "D": 64},
        "ragged": {"B": 333, "MAXLEN": 300, "D": 333},
        "large": {"B": 1024, "MAXLEN": 512, "D": 256},
    },
    "baseline_notes": "One launch, grid (B, cdiv(D, 128)): each program reads its segment bounds from the "
                      "offsets and sums [32, 128] row tiles of the segment in fp32; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [total, D] normals and offsets [B + 1] int64 from segment lengths uniform in [0, MAXLEN]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(0, s["MAXLEN"] + 1, (s["B"],), generator=g)
    offsets = torch.zeros(s["B"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    values = torch.randn(int(offsets[-1]), s["D"], generator=g)
    return values.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), offsets.to(device)


def reference(values: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    B, D = offsets.numel() - 1, values.shape[1]
    seg = torch.repeat_interleave(torch.arange(B, device=values.device), offsets.diff())
    out = torch.zeros(B, D, dtype=torch.float64, device=values.device)
    out.index_add_(0, seg, values.double())
    return out.to(values.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    rows = s["B"] * s["MAXLEN"] // 2
    return {"bytes": rows * s["D"] * item + s["B"] * s["D"] * item + 8 * (s["B"] + 1), "flops": rows * s["D"]}
