"""Bitcoin proof-of-work nonce scan: SHA-256d of the 80-byte block header for every nonce (cgminer / bfgminer
OpenCL-CUDA scanhash kernels).

A miner holds J jobs (block templates that differ in their extranonce2, hence in the merkle root) and tries
every nonce in [0, n_nonces) for each. The header is 80 bytes; as SHA-256 input it is 20 big-endian words, the
nonce being the last word, byte-swapped (it is serialised little-endian). The first 64 bytes do not depend on
the nonce, so, as in every GPU miner, the host hands the kernel the midstate (the compression of words 0..15)
and the three tail words 16..18. Per nonce:
    h = SHA256-compress(midstate, [w16, w17, w18, bswap(nonce), 0x80000000, 0 x 10, 640])
    g = SHA256-compress(IV, [h0..h7, 0x80000000, 0 x 6, 256])
The block hash is g read as a 256-bit little-endian number; the nonce is a hit when that number <= target
(target given as 8 words, most significant first). Returns, per job, the number of hits (int32 [J]) and the
smallest hitting nonce (int32 [J], -1 when there is none).

Words are stored as int32 tensors holding the uint32 bit pattern (torch has no uint32 arithmetic).
"""
import torch

META = {
    "name": "sha256d_nonce_scan",
    "level": 2,
    "category": "crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"J": 2, "n_nonces": 100, "zero_bits": 4},
        "ragged": {"J": 3, "n_nonces": 200, "zero_bits": 5},
        "large": {"J": 16, "n_nonces": 1 << 20, "zero_bits": 16},
    },
    "baseline_notes": "2-D grid (job, block of 128 nonces): each program loads the job's midstate and tail "
                      "words as scalars, runs the two SHA-256 compressions on 128 nonces (64 fully unrolled "
                      "rounds, 16-word sliding message schedule in registers), compares the byte-reversed "
                      "digest with the target most-significant word first and records hits with masked "
                      "atomics (count, unsigned atomic_min of the nonce). 4 warps, no autotune.",
    "deterministic": True,
}

M32 = 0xFFFFFFFF
SHA256_K = (
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2)
SHA256_IV = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)


def _rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & M32


def sha256_compress(state, words):
    """One SHA-256 compression on int64 tensors (or ints) holding uint32 values; broadcasts."""
    w = list(words)
    for t in range(16, 64):
        s0 = _rotr(w[t - 15], 7) ^ _rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
        s1 = _rotr(w[t - 2], 17) ^ _rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
        w.append((w[t - 16] + s0 + w[t - 7] + s1) & M32)
    a, b, c, d, e, f, g, h = state
    for t in range(64):
        t1 = (h + (_rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)) + ((e & f) ^ (~e & g & M32))
              + SHA256_K[t] + w[t]) & M32
        t2 = ((_rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) & M32
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & M32, c, b, a, (t1 + t2) & M32
    return [(s + v) & M32 for s, v in zip(state, (a, b, c, d, e, f, g, h))]


def bswap32(x):
    return ((x >> 24) & 0xFF) | ((x >> 8) & 0xFF00) | ((x << 8) & 0xFF0000) | ((x << 24) & 0xFF000000)


def to_i32(x: torch.Tensor) -> torch.Tensor:
    """uint32 values in an int64 tensor -> int32 tensor with the same bit pattern."""
    return torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """header [J, 20] (big-endian SHA words of the 80-byte header, nonce word 0), midstate [J, 8],
    target [8] (most significant word first) and n_nonces."""
    s = META["sizes"][size]
    J, n = s["J"], s["n_nonces"]
    g = torch.Generator().manual_seed(seed)
    prev = torch.randint(0, 256, (32,), generator=g)
    prev[28:] = 0  # a real previous-block hash ends (little-endian) in zero bytes
    headers = []
    for _ in range(J):
        merkle = torch.randint(0, 256, (32,), generator=g)  # extranonce2 differs per job
        ntime = 1_700_000_000 + int(torch.randint(0, 600, (1,), generator=g))
        raw = (list((0x20000000).to_bytes(4, "little")) + prev.tolist() + merkle.tolist()
               + list(ntime.to_bytes(4, "little")) + list((0x17034219).to_bytes(4, "little")) + [0, 0, 0, 0])
        b = torch.tensor(raw, dtype=torch.int64).view(20, 4)
        headers.append((b[:, 0] << 24) | (b[:, 1] << 16) | (b[:, 2] << 8) | b[:, 3])
    header = torch.stack(headers)
    mid = torch.stack(sha256_compress([torch.full((J,), v, dtype=torch.int64) for v in SHA256_IV],
                                      [header[:, k] for k in range(16)]), dim=1)
    top = M32 >> s["zero_bits"]
    target = torch.tensor([top] + [M32] * 7, dtype=torch.int64)
    return to_i32(header).to(device), to_i32(mid).to(device), to_i32(target).to(device), n


def reference(header: torch.Tensor, midstate: torch.Tensor, target: torch.Tensor, n_nonces: int) -> tuple:
    """Double SHA-256 of the full header from scratch (the midstate argument is not used)."""
    dev = header.device
    words = header.long() & M32
    tgt = (target.long() & M32).tolist()
    J = words.shape[0]
    hits = torch.zeros(J, dtype=torch.int64, device=dev)
    first = torch.full((J,), -1, dtype=torch.int64, device=dev)
    for j in range(J):
        w = words[j]
        mid = sha256_compress(list(SHA256_IV), [w[k] for k in range(16)])
        for start in range(0, n_nonces, 1 << 21):
            nonce = torch.arange(start, min(n_nonces, start + (1 << 21)), dtype=torch.int64, device=dev)
            h = sha256_compress(mid, [w[16], w[17], w[18], bswap32(nonce), 0x80000000] + [0] * 10 + [640])
            d = sha256_compress(list(SHA256_IV), h + [0x80000000] + [0] * 6 + [256])
            below = torch.zeros_like(nonce, dtype=torch.bool)
            tie = torch.ones_like(nonce, dtype=torch.bool)
            for k in range(8):
                v = bswap32(d[7 - k])
                below = below | (tie & (v < tgt[k]))
                tie = tie & (v == tgt[k])
            hit = below | tie
            hits[j] += hit.sum()
            if first[j] < 0 and bool(hit.any()):
                first[j] = nonce[hit].min()
    return hits.to(torch.int32), first.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    hashes = s["J"] * s["n_nonces"]
    return {"bytes": 4 * 31 * s["J"] + 8 * s["J"], "flops": 2 * 64 * 30 * hashes}
