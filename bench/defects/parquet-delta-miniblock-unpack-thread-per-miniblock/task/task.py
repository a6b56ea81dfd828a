"""Miniblock unpack of Parquet DELTA_BINARY_PACKED pages (the bit-unpacking stage of a GPU Parquet reader).

A page holds blocks of 128 deltas, each block a min_delta followed by 4 miniblocks of 32 values, and
every miniblock has its own bit width b (0..32): its 32 values are packed LSB-first into exactly b
little-endian 32-bit words (value t at bits t*b .. t*b+b-1). This stage returns the deltas
min_delta[block] + unpacked value as int32 (two's complement wrap-around, as in the format); the
running sum that turns deltas into values is the next stage.
"""
import torch

MINIBLOCKS_PER_BLOCK = 4

META = {
    "name": "parquet_delta_miniblock_unpack",
    "level": 2,
    "category": "compression",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"miniblocks": 24},
        "ragged": {"miniblocks": 77},
        "large": {"miniblocks": 2097152},
    },
    "baseline_notes": "One program per 32 miniblocks (1,024 values) as a [32 miniblocks, 32 values] tile: loads the "
                      "widths, word offsets and block min_deltas, gathers each value's low and spill words, shifts, "
                      "masks to b bits, adds min_delta and stores the rows contiguously; 4 warps, no autotune.",
    "deterministic": True,
}


def _pack(values: torch.Tensor, widths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Pack values [M, 32] (each below 2**width) LSB-first: miniblock m takes widths[m] words at offsets[m]."""
    w = widths.long()
    offsets = torch.cumsum(w, 0) - w
    total = int(w.sum())
    bit = offsets[:, None] * 32 + torch.arange(32)[None, :] * w[:, None]
    v = values.long().flatten()
    word, shift = (bit >> 5).flatten(), (bit & 31).flatten()
    acc = torch.zeros(total + 1, dtype=torch.int64)
    acc.index_add_(0, word, (v << shift) & 0xFFFFFFFF)
    acc.index_add_(0, word + 1, torch.where(shift > 0, v >> (32 - shift), torch.zeros_like(v)))
    acc = acc[:total]
    words = torch.where(acc >= 2**31, acc - 2**32, acc).to(torch.int32)
    return words, offsets.to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """words [sum(widths)] int32, widths [M] uint8, offsets [M] int32 (first word of each miniblock), min_delta [ceil(M/4)] int32."""
    M = META["sizes"][size]["miniblocks"]
    g = torch.Generator().manual_seed(seed)
    # sorted keys and timestamps: mostly narrow miniblocks, some empty (constant step), a few wide ones
    widths = torch.randint(2, 17, (M,), generator=g)
    pick = torch.rand(M, generator=g)
    widths = torch.where(pick < 0.08, 0, widths)
    widths = torch.where(pick > 0.97, torch.randint(17, 33, (M,), generator=g), widths)
    if M >= 4:
        widths[:4] = torch.tensor([0, 1, 31, 32])
    top = torch.where(widths == 32, torch.full_like(widths, 2**32), 2**widths.clamp(max=31))
    values = (torch.rand(M, 32, generator=g, dtype=torch.float64) * top[:, None]).long().clamp(max=2**32 - 1)
    values = torch.minimum(values, top[:, None] - 1).clamp(min=0)
    words, offsets = _pack(values, widths)
    blocks = (M + MINIBLOCKS_PER_BLOCK - 1) // MINIBLOCKS_PER_BLOCK
    min_delta = torch.randint(-5000, 5000, (blocks,), generator=g, dtype=torch.int32)
    return words.to(device), widths.to(torch.uint8).to(device), offsets.to(device), min_delta.to(device)


def reference(words: torch.Tensor, widths: torch.Tensor, offsets: torch.Tensor, min_delta: torch.Tensor) -> torch.Tensor:
    M = widths.numel()
    w = widths.long()[:, None]
    t = torch.arange(32, device=words.device)[None, :]
    bit = t * w
    idx = offsets.long()[:, None] + (bit >> 5)
    shift = bit & 31
    u = words.long() & 0xFFFFFFFF
    last = max(words.numel() - 1, 0)
    lo = torch.where(w > 0, u[idx.clamp(max=last)], 0) >> shift
    spill = shift + w > 32
    hi = torch.where(spill, u[(idx + 1).clamp(max=last)], 0) << (32 - shift)
    z = (lo | hi) & ((1 << w) - 1)
    block = torch.arange(M, device=words.device) // MINIBLOCKS_PER_BLOCK
    out = (min_delta.long()[block][:, None] + z) & 0xFFFFFFFF
    return torch.where(out >= 2**31, out - 2**32, out).to(torch.int32).flatten()


def cost(size: str, dtype: str | None = None) -> dict:
    M = META["sizes"][size]["miniblocks"]
    return {"bytes": 4 * 32 * M + 4 * int(M * 8.75) + 6 * M, "flops": 0}
