"""MinHash signatures of character n-gram shingles (cuDF nvtext::minhash_permuted, as used by NeMo-Curator fuzzy dedup).

Each document is a byte string (cuDF strings column: chars + int32 offsets). Every WIDTH-byte
shingle is hashed once with MurmurHash3_x86_32 (seed), and the document's signature entry i is
min over its shingles of ((a_i * h + b_i) mod (2^61 - 1)) & 0xFFFFFFFF. Signatures are [D, P].
"""
import torch

META = {
    "name": "minhash_permuted",
    "level": 2,
    "category": "hash",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"D": 5, "L": 120, "P": 16},
        "ragged": {"D": 6, "L": 150, "P": 23},
        "large": {"D": 4096, "L": 4096, "P": 260},
    },
    "baseline_notes": "Grid (document, block of 32 permutations): loops over the document's shingles in tiles of 64, "
                      "hashes each tile once with MurmurHash3 (byte loads, uint32 math) and applies the block's 32 "
                      "permutations as a [64, 32] int64 tile, running min in registers; 4 warps, no autotune.",
    "deterministic": True,
}

WIDTH = 24
SEED = 42
MERSENNE_61 = (1 << 61) - 1
MASK32 = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """chars uint8 [total], offsets int32 [D + 1], param_a / param_b int64 [P] (< 2^31), hash seed, shingle width."""
    s = META["sizes"][size]
    D, L, P = s["D"], s["L"], s["P"]
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(max(WIDTH, L // 8), L + 1, (D,), generator=g)
    lengths[0] = L
    total = int(lengths.sum())
    # lowercase text with spaces and some punctuation, byte-valued
    alphabet = torch.tensor(list(b"abcdefghijklmnopqrstuvwxyz    etaoin.,\n"), dtype=torch.uint8)
    chars = alphabet[torch.randint(0, len(alphabet), (total,), generator=g)]
    offsets = torch.zeros(D + 1, dtype=torch.int32)
    offsets[1:] = torch.cumsum(lengths, 0).to(torch.int32)
    param_a = torch.randint(1, 1 << 31, (P,), generator=g, dtype=torch.int64)
    param_b = torch.randint(0, 1 << 31, (P,), generator=g, dtype=torch.int64)
    return (chars.to(device), offsets.to(device), param_a.to(device), param_b.to(device), SEED, WIDTH)


def _rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & MASK32


def _murmur3_words(words: torch.Tensor, seed: int) -> torch.Tensor:
    """MurmurHash3_x86_32 of rows of little-endian 32-bit words (int64 holding uint32), length 4 * words."""
    h = torch.full(words.shape[:1], seed, dtype=torch.int64, device=words.device)
    for j in range(words.shape[1]):
        k = (words[:, j] * 0xCC9E2D51) & MASK32
        k = _rotl32(k, 15)
        k = (k * 0x1B873593) & MASK32
        h = h ^ k
        h = _rotl32(h, 13)
        h = (h * 5 + 0xE6546B64) & MASK32
    h = h ^ (4 * words.shape[1])
    h = h ^ (h >> 16)
    h = (h * 0x85EBCA6B) & MASK32
    h = h ^ (h >> 13)
    h = (h * 0xC2B2AE35) & MASK32
    return h ^ (h >> 16)


def reference(chars, offsets, param_a, param_b, seed, width):
    dev = chars.device
    c = torch.cat([chars.to(torch.int64), torch.zeros(width + 4, dtype=torch.int64, device=dev)])
    n = chars.numel()
    word = c[:n] | (c[1:n + 1] << 8) | (c[2:n + 2] << 16) | (c[3:n + 3] << 24)
    word = torch.cat([word, torch.zeros(width, dtype=torch.int64, device=dev)])
    off = offsets.to(torch.int64)
    D = off.numel() - 1
    n_sh = (off[1:] - off[:-1]) - width + 1
    doc = torch.repeat_interleave(torch.arange(D, device=dev), n_sh)
    first = torch.cumsum(n_sh, 0) - n_sh
    start = off[:-1][doc] + torch.arange(doc.numel(), device=dev) - first[doc]
    words = torch.stack([word[start + 4 * j] for j in range(width // 4)], dim=1)
    h = _murmur3_words(words, seed)
    P = param_a.numel()
    sig = torch.empty(D, P, dtype=torch.int64, device=dev)
    for i in range(P):
        x = param_a[i] * h + param_b[i]
        x = x % MERSENNE_61
        v = x & MASK32
        sig[:, i] = torch.full((D,), MASK32, dtype=torch.int64, device=dev).scatter_reduce(
            0, doc, v, reduce="amin", include_self=True)
    return sig


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    total = s["D"] * (s["L"] + max(WIDTH, s["L"] // 8)) // 2
    shingles = total - s["D"] * (WIDTH - 1)
    return {"bytes": total + 4 * (s["D"] + 1) + 16 * s["P"] + 8 * s["D"] * s["P"],
            "flops": shingles * (WIDTH * 3 + s["P"] * 6)}
