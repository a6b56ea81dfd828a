"""Mash sketch k-mer hashing (Mash `sketch`, k <= 16: 32-bit MurmurHash3 of the canonical k-mer).

Mash sketches every genome of a collection on its own: for each k-mer start p of a genome (its
ASCII sequence, upper case A/C/G/T), the canonical k-mer is the lexicographically smaller of the
forward k-mer and its reverse complement (Mash compares the two strings with memcmp), and the
sketch hash is MurmurHash3_x86_32 of those k characters with Mash's default seed 42 (Mash switches
to 32-bit hashes when k <= 16). The bottom-s selection of the sketch (s = 1000) follows outside
this kernel. Genomes of a batch are padded to Lmax; lengths[g] is the real length.

Returns hashes [G, Lmax - k + 1] as int32 (the uint32 bit pattern); positions p > lengths[g] - k
(k-mers that would run into the padding) are 0.
"""
import torch

K = 16
SEED = 42

META = {
    "name": "mash_sketch_kmer_hash",
    "level": 2,
    "category": "hashing",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"G": 3, "Lmax": 64},
        "ragged": {"G": 5, "Lmax": 101},
        "large": {"G": 2048, "Lmax": 32768},
    },
    "baseline_notes": "One launch of 40 programs (the 910B4's vector cores) that loop over (genome, block of "
                      "2048 k-mer starts) work items; per block 16 shifted contiguous uint8 loads build the "
                      "forward and reverse-complement 2-bit codes, the canonical code is their minimum, its "
                      "16 characters are re-packed into four little-endian words for MurmurHash3_x86_32 "
                      "(seed 42) in uint32; blocks past a genome's last k-mer are skipped. No autotune.",
    "deterministic": True,
}

_ACGT = torch.tensor([65, 67, 71, 84], dtype=torch.uint8)
_M32 = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seqs [G, Lmax] uint8 ASCII (padding 'N'), lengths [G] int32 with K <= lengths <= Lmax."""
    s = META["sizes"][size]
    G, Lmax = s["G"], s["Lmax"]
    g = torch.Generator().manual_seed(seed)
    codes = torch.randint(0, 4, (G, Lmax), generator=g)
    # a few low-complexity stretches (poly-A / poly-T and a palindromic repeat), as real assemblies have
    codes[:, 5:5 + K] = 0
    codes[0, 30:30 + K] = 3
    codes[-1, 8:8 + K // 2] = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3])[: K // 2]
    codes[-1, 8 + K // 2:8 + K] = 3 - codes[-1, 8:8 + K // 2].flip(0)
    seqs = _ACGT[codes]
    lengths = torch.randint(max(K, Lmax // 8), Lmax + 1, (G,), generator=g)
    lengths[0] = Lmax
    pad = torch.arange(Lmax)[None, :] >= lengths[:, None]
    seqs = seqs.masked_fill(pad, ord("N"))
    return seqs.to(device), lengths.to(torch.int32).to(device)


def _mul32(a: torch.Tensor, c: int) -> torch.Tensor:
    """(a * c) mod 2**32 for int64 tensors holding uint32 values, without overflowing int64."""
    lo = a * (c & 0xFFFF)
    hi = ((a * (c >> 16)) & 0xFFFF) << 16
    return (lo + hi) & _M32


def _rotl32(x: torch.Tensor, r: int) -> torch.Tensor:
    return ((x << r) | (x >> (32 - r))) & _M32


def _murmur3_32(words: list, length: int, seed: int) -> torch.Tensor:
    h = torch.full_like(words[0], seed)
    for w in words:
        k1 = _mul32(w, 0xCC9E2D51)
        k1 = _rotl32(k1, 15)
        k1 = _mul32(k1, 0x1B873593)
        h = h ^ k1
        h = _rotl32(h, 13)
        h = (_mul32(h, 5) + 0xE6546B64) & _M32
    h = h ^ length
    h = h ^ (h >> 16)
    h = _mul32(h, 0x85EBCA6B)
    h = h ^ (h >> 13)
    h = _mul32(h, 0xC2B2AE35)
    h = h ^ (h >> 16)
    return h


def reference(seqs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    G, Lmax = seqs.shape
    P = Lmax - K + 1
    lut = torch.full((256,), -1, dtype=torch.int64)
    lut[_ACGT.long()] = torch.arange(4)
    out = torch.zeros(G, P, dtype=torch.int64)
    for g0 in range(0, G, 64):
        codes = lut[seqs[g0:g0 + 64].cpu().long()]                       # [g, Lmax]
        win = codes.unfold(1, K, 1)                                        # [g, P, K]
        fwd_chars = win
        rc_chars = (3 - win).flip(-1)
        # memcmp order of the strings == order of the 2-bit codes (A < C < G < T in ASCII)
        weights = 4 ** torch.arange(K - 1, -1, -1, dtype=torch.int64)
        use_rc = (rc_chars * weights).sum(-1) < (fwd_chars * weights).sum(-1)
        chars = torch.where(use_rc[..., None], rc_chars, fwd_chars)
        asc = _ACGT.long()[chars.clamp(min=0)]
        words = [asc[..., 4 * j] | (asc[..., 4 * j + 1] << 8) | (asc[..., 4 * j + 2] << 16)
                 | (asc[..., 4 * j + 3] << 24) for j in range(K // 4)]
        h = _murmur3_32(words, K, SEED)
        valid = torch.arange(P)[None, :] <= (lengths[g0:g0 + 64].cpu().long()[:, None] - K)
        out[g0:g0 + 64] = torch.where(valid, h, torch.zeros_like(h))
    out = torch.where(out >= 2 ** 31, out - 2 ** 32, out)
    return out.to(torch.int32).to(seqs.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    G, Lmax = s["G"], s["Lmax"]
    P = Lmax - K + 1
    return {"bytes": G * Lmax + 4 * G * P + 4 * G, "flops": 340 * G * P}
