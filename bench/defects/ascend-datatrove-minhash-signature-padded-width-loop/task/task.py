"""MinHash signatures of a batch of documents (datatrove MinhashDedupSignature, FineWeb's 14 x 8 setup).

Each document d arrives as the 32-bit hashes of its word 5-gram shingles, padded to the batch width L
(shingles[d, i] for i < lengths[d] are real, the rest is padding). For every permutation p of the
MinHash family (here the 32-bit multiply-add family of the GPU ports, h_p(x) = (a_p * x + b_p) mod 2^32
kept to 31 bits so the values order as signed int32) the signature is
    sig[d, p] = min over i < lengths[d] of ((a_p * shingles[d, i] + b_p) mod 2^32) & 0x7FFFFFFF
Every document has at least one shingle. With P = 112 = 14 bands x 8 rows, the LSH banding of
datatrove (num_buckets=14, hashes_per_bucket=8) follows on the signature.
"""
import math

import torch

META = {
    "name": "minhash_signature",
    "level": 2,
    "category": "hashing",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"D": 6, "L": 256, "P": 112},
        "ragged": {"D": 7, "L": 301, "P": 100},
        "large": {"D": 4096, "L": 8192, "P": 112},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over documents; per document the "
                      "permutations are a [BP=128, 1] column against [1, BL=64] shingle tiles, the "
                      "tile loop stops at the document's own length (padding lanes take the document's "
                      "first shingle, which cannot change a min), running min over the contiguous "
                      "shingle axis; int32 wrap-around arithmetic only, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """shingles int32 [D, L] (zero padding), lengths int32 [D] in [1, L], perm_a (odd) and perm_b int32 [P]."""
    s = META["sizes"][size]
    d, width, p = s["D"], s["L"], s["P"]
    g = torch.Generator().manual_seed(seed)
    # Web documents: log-normal word counts, median ~ L / 18 (450 shingles at L = 8192), capped at L.
    median = width / 18.0
    lengths = torch.exp(math.log(median) + torch.randn(d, generator=g)).round().clamp(1, width).to(torch.int32)
    shingles = torch.randint(-2**31, 2**31, (d, width), generator=g, dtype=torch.int64).to(torch.int32)
    pad = torch.arange(width)[None, :] >= lengths[:, None].long()
    shingles = shingles.masked_fill(pad, 0)
    perm_a = (torch.randint(-2**31, 2**31, (p,), generator=g, dtype=torch.int64) | 1).to(torch.int32)
    perm_b = torch.randint(-2**31, 2**31, (p,), generator=g, dtype=torch.int64).to(torch.int32)
    return shingles.to(device), lengths.to(device), perm_a.to(device), perm_b.to(device)


def reference(shingles: torch.Tensor, lengths: torch.Tensor, perm_a: torch.Tensor,
              perm_b: torch.Tensor) -> torch.Tensor:
    d, width = shingles.shape
    a = perm_a.long()[None, :, None]
    b = perm_b.long()[None, :, None]
    pos = torch.arange(width, device=shingles.device)
    out = torch.empty((d, perm_a.numel()), dtype=torch.int32, device=shingles.device)
    for start in range(0, d, 8):
        x = shingles[start:start + 8].long()[:, None, :]
        h = (a * x + b) & 0x7FFFFFFF
        pad = pos[None, None, :] >= lengths[start:start + 8].long()[:, None, None]
        out[start:start + 8] = h.masked_fill(pad, 2**31).amin(dim=2).to(torch.int32)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["D"] * s["L"] + 4 * s["D"] * (s["P"] + 1), "flops": 4 * s["D"] * s["L"] * s["P"]}
