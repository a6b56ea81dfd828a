"""Canonical k-mer hashes of minimap2's sketching step (mm_sketch, sketch.c) for one sequence.

`seq` holds nucleotide codes (uint8: A 0, C 1, G 2, T 3, 4 for an ambiguous base, the
seq_nt4_table encoding minimap2 applies while reading). For every k-mer start p (k = 15, the
-x map-ont preset, so 2k = 30 bits):
    fwd = sum_t c[p+t] << 2(k-1-t),   rev = sum_t (3 - c[p+t]) << 2t   (reverse complement)
    z   = 0 if fwd < rev else 1        (odd k: never equal)
    out[p] = hash64(min(fwd, rev), mask = 2^30 - 1) << 1 | z
with minimap2's invertible integer hash64 (Thomas Wang's mix). A k-mer that contains an
ambiguous base is skipped by minimap2; here it gets -1. The w-window minimum and the
(hash, position) records that mm_sketch pushes are built from this array downstream.
Returns int32 [N - k + 1].
"""
import torch

META = {
    "name": "minimap2_kmer_hash",
    "level": 1,
    "category": "genomics",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 600, "k": 15},
        "ragged": {"N": 2347, "k": 15},
        "large": {"N": 133_275_309, "k": 15},  # GRCh38 chr12, sketched while building an index
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 2048 k-mer starts: k shifted "
                      "contiguous uint8 loads build the forward and reverse-complement 2k-bit codes in int32 "
                      "(2k = 30 bits), a running max flags ambiguous bases, hash64's shift/add/xor chain runs "
                      "in int32 (exact modulo 2^30), one contiguous int32 store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seq uint8 [N] of nt4 codes (a few N runs and scattered ambiguous bases), k (int)."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    seq = torch.randint(0, 4, (n,), generator=g, dtype=torch.uint8)
    for _ in range(3):
        start = int(torch.randint(0, n - 20, (1,), generator=g))
        seq[start:start + 1 + n // 300] = 4
    scattered = torch.randint(0, n, (max(1, n // 1000),), generator=g)
    seq[scattered] = 4
    return seq.to(device), s["k"]


def hash64(key: torch.Tensor, mask: int) -> torch.Tensor:
    key = (~key + (key << 21)) & mask
    key = key ^ (key >> 24)
    key = ((key + (key << 3)) + (key << 8)) & mask
    key = key ^ (key >> 14)
    key = ((key + (key << 2)) + (key << 4)) & mask
    key = key ^ (key >> 28)
    key = (key + (key << 31)) & mask
    return key


def reference(seq: torch.Tensor, k: int) -> torch.Tensor:
    c = seq.long()
    n_kmers = c.numel() - k + 1
    fwd = torch.zeros(n_kmers, dtype=torch.int64, device=seq.device)
    rev = torch.zeros(n_kmers, dtype=torch.int64, device=seq.device)
    amb = torch.zeros(n_kmers, dtype=torch.bool, device=seq.device)
    for t in range(k):
        ct = c[t:t + n_kmers]
        amb |= ct > 3
        fwd = (fwd << 2) | (ct & 3)
        rev = rev | ((3 - (ct & 3)) << (2 * t))
    z = (rev < fwd).long()
    h = hash64(torch.minimum(fwd, rev), (1 << (2 * k)) - 1)
    out = torch.where(amb, torch.full_like(h, -1), (h << 1) | z)
    return out.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 5 * s["N"], "flops": (5 * s["k"] + 25) * s["N"]}
