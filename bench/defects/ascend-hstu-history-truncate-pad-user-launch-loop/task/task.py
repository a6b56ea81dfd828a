"""Per-user history truncation and padding for HSTU (jagged -> padded dense, keep the most recent events).

values [T, D] holds every user's history embeddings back to back, oldest first; offsets [B + 1] (int64, as
fbgemm's asynchronous_complete_cumsum returns them) are the row boundaries. With n_b = min(len_b, max_len):
    out[b, t] = values[offsets[b + 1] - n_b + t]   for t < n_b
    out[b, t] = 0                                  for n_b <= t < max_len
"""
import torch

META = {
    "name": "hstu_history_truncate_pad",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 4, "L": 24, "D": 64},
        "ragged": {"B": 5, "L": 37, "D": 100},
        "large": {"B": 256, "L": 4096, "D": 256},
    },
    "baseline_notes": "One launch of 40 programs (the 910B4's vector cores) looping over (user, 64-row block) "
                      "items: read the user's two offsets, copy the kept tail rows as one [64, D] tile with the "
                      "rows past n_b filled with zeros, store the block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [T, D], offsets [B + 1] int64, max_len (lengths from L/8 to 2L, one empty history)."""
    s = META["sizes"][size]
    B, L, D = s["B"], s["L"], s["D"]
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(max(1, L // 8), 2 * L + 1, (B,), generator=g)
    lengths[1] = 0
    offsets = torch.zeros(B + 1, dtype=torch.int64)
    offsets[1:] = lengths.cumsum(0)
    values = torch.randn(int(offsets[-1]), D, generator=g)
    return values.to(getattr(torch, dtype or META["dtypes"][0])).to(device), offsets.to(device), L


def reference(values: torch.Tensor, offsets: torch.Tensor, max_len: int) -> torch.Tensor:
    B = offsets.numel() - 1
    out = torch.zeros((B, max_len, values.shape[1]), dtype=values.dtype, device=values.device)
    off = offsets.tolist()
    for b in range(B):
        n = min(off[b + 1] - off[b], max_len)
        out[b, :n] = values[off[b + 1] - n:off[b + 1]]
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, L, D = s["B"], s["L"], s["D"]
    lo = max(1, L // 8)
    kept = sum(min(n, L) for n in range(lo, 2 * L + 1)) / (2 * L + 1 - lo)  # mean rows read per user
    return {"bytes": int((B * L + B * kept) * D * item) + 8 * (B + 1), "flops": 0}
