"""Bulk Tanimoto similarity of one query fingerprint against a bit-packed fingerprint database
(chemfp / RDKit BulkTanimotoSimilarity).

Fingerprints are stored row-major as int32 words, [N, W] (2048-bit Morgan: W = 64). For each target
t: sim = |q & t| / |q | t| = c / (a + b - c) with c = popcount(q & t), a = popcount(q),
b = popcount(t); two empty fingerprints have similarity 0.0 (chemfp's convention).
"""
import torch

META = {
    "name": "tanimoto_bulk_similarity",
    "level": 2,
    "category": "similarity",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 300, "BITS": 2048, "ON": 48},
        "ragged": {"N": 517, "BITS": 166, "ON": 40},
        "large": {"N": 2_409_270, "BITS": 2048, "ON": 48},
    },
    "baseline_notes": "BLOCK_N = 64 fingerprints per program, the whole row of W words loaded as one "
                      "[BLOCK_N, next_power_of_2(W)] tile; SWAR popcount of the intersection and of the "
                      "target, row sums, one fp32 division; 4 warps, no autotune.",
    "deterministic": True,
}


def _random_fps(n: int, bits: int, on: int, g: torch.Generator) -> torch.Tensor:
    """Hashed-fingerprint style rows: `on` random bit positions per row (a repeat sets a neighbouring bit)."""
    words = (bits + 31) // 32
    pos = torch.randint(0, bits, (n, on), generator=g)
    fp = torch.zeros(n, words, dtype=torch.int64)
    fp.scatter_add_(1, pos >> 5, torch.ones((), dtype=torch.int64) << (pos & 31))
    tail = bits - 32 * (words - 1)
    fp[:, -1] &= (1 << tail) - 1
    return fp.to(torch.int32)  # keeps the low 32 bits of each word


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query [W] int32, fps [N, W] int32 (row-major, one fingerprint per row)."""
    s = META["sizes"][size]
    n, bits, on = s["N"], s["BITS"], s["ON"]
    g = torch.Generator().manual_seed(seed)
    fps = torch.cat([_random_fps(min(1 << 20, n - i), bits, on, g) for i in range(0, n, 1 << 20)])
    query = _random_fps(1, bits, on, g)[0]
    # a few near neighbours of the query: its bits with a few dropped and a few added
    k = min(16, n)
    rows = torch.randint(0, n, (k,), generator=g)
    fps[rows] = (query[None, :] & ~_random_fps(k, bits, on // 8, g)) | _random_fps(k, bits, on // 8, g)
    fps[-1] = 0
    return query.to(device), fps.to(device)


def _popcount_rows(x: torch.Tensor) -> torch.Tensor:
    table = torch.tensor([bin(i).count("1") for i in range(256)], dtype=torch.uint8, device=x.device)
    return table[x.contiguous().view(torch.uint8).long()].view(x.shape[0], -1).sum(1, dtype=torch.int64)


def reference(query: torch.Tensor, fps: torch.Tensor) -> torch.Tensor:
    a = _popcount_rows(query[None, :])
    out = torch.empty(fps.shape[0], dtype=torch.float32, device=fps.device)
    step = 1 << 18
    for i in range(0, fps.shape[0], step):
        t = fps[i:i + step]
        c = _popcount_rows(t & query[None, :])
        union = a + _popcount_rows(t) - c
        sim = torch.where(union > 0, c.double() / union.clamp(min=1).double(), torch.zeros_like(c, dtype=torch.float64))
        out[i:i + step] = sim.float()
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    words = (s["BITS"] + 31) // 32
    return {"bytes": 4 * s["N"] * words + 4 * words + 4 * s["N"], "flops": 2 * 16 * s["N"] * words}
