"""PBKDF2-HMAC-SHA256 over a batch of password candidates (hashcat -m 10900, "sha256:1000:salt:hash").

For each candidate password P (at most 64 bytes, so it is the HMAC key itself, zero-padded) and one salt S,
with c iterations and a 32-byte derived key (one PBKDF2 block):
    U_1 = HMAC-SHA256(P, S || INT(1)),   U_i = HMAC-SHA256(P, U_{i-1}),   DK = U_1 ^ U_2 ^ ... ^ U_c
HMAC(P, m) = SHA256((P ^ opad) || SHA256((P ^ ipad) || m)). A cracker computes the two key blocks
(P ^ ipad), (P ^ opad) once per candidate, so every iteration costs two SHA-256 compressions.
Inputs: pw [N, 16] int32 (the 64-byte zero-padded key as big-endian words), salt [4] int32 (16 bytes, big-endian
words), iterations (int). Output: DK [N, 8] int32 (big-endian words). Words are int32 tensors holding the uint32
bit pattern (torch has no uint32 arithmetic).
"""
import torch

META = {
    "name": "pbkdf2_hmac_sha256",
    "level": 2,
    "category": "crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 20, "iterations": 3},
        "ragged": {"N": 37, "iterations": 3},
        "large": {"N": 1 << 18, "iterations": 1000},
    },
    "baseline_notes": "Two launches as in hashcat's init/loop kernels: a 1-D grid of 32-candidate programs, one "
                      "warp each (one candidate per lane). The init kernel loads the [32, 16] key tile, computes "
                      "the ipad/opad states and stores them ([N, 2, 8]); the loop kernel loads them, runs the c "
                      "iterations (the first message is salt || INT(1)) with U and the running XOR in registers, "
                      "two fully unrolled SHA-256 compressions (16-word sliding schedule) per iteration, and "
                      "stores DK once. No autotune.",
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
CHARSET = b"abcdefghijklmnopqrstuvwxyz0123456789"


def _sigma(x, r1, r2, r3, shift=None):
    """SHA-256 sigma functions on uint32 values in int64: x duplicated into 64 bits makes a rotation one shift."""
    d = (x << 32) | x
    y = (d >> r1) ^ (d >> r2) ^ ((x >> r3) if shift else (d >> r3))
    return y & M32


def sha256_compress(state, words):
    """One SHA-256 compression on int64 tensors (or ints) holding uint32 values; broadcasts."""
    w = list(words)
    for t in range(16, 64):
        w.append((w[t - 16] + _sigma(w[t - 15], 7, 18, 3, True) + w[t - 7] + _sigma(w[t - 2], 17, 19, 10, True)) & M32)
    a, b, c, d, e, f, g, h = state
    for t in range(64):
        t1 = h + _sigma(e, 6, 11, 25) + (g ^ (e & (f ^ g))) + (w[t] + SHA256_K[t])
        t2 = _sigma(a, 2, 13, 22) + ((a & b) | (c & (a | b)))
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & M32, c, b, a, (t1 + t2) & M32
    return [(s + v) & M32 for s, v in zip(state, (a, b, c, d, e, f, g, h))]


def to_i32(x: torch.Tensor) -> torch.Tensor:
    """uint32 values in an int64 tensor -> int32 tensor with the same bit pattern."""
    return torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pw [N, 16] (candidates of 6..16 characters from [a-z0-9], zero-padded HMAC key words), salt [4], iterations."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    chars = torch.tensor(list(CHARSET), dtype=torch.int64)
    raw = chars[torch.randint(0, len(CHARSET), (n, 64), generator=g)]
    length = torch.randint(6, 17, (n, 1), generator=g)
    raw = torch.where(torch.arange(64)[None, :] < length, raw, torch.zeros_like(raw)).view(n, 16, 4)
    pw = (raw[..., 0] << 24) | (raw[..., 1] << 16) | (raw[..., 2] << 8) | raw[..., 3]
    sb = torch.randint(0, 256, (4, 4), generator=g)
    salt = (sb[:, 0] << 24) | (sb[:, 1] << 16) | (sb[:, 2] << 8) | sb[:, 3]
    return to_i32(pw).to(device), to_i32(salt).to(device), s["iterations"]


def reference(pw: torch.Tensor, salt: torch.Tensor, iterations: int) -> torch.Tensor:
    key = pw.long() & M32
    n = key.shape[0]
    iv = [torch.full((n,), v, dtype=torch.int64, device=pw.device) for v in SHA256_IV]
    inner = sha256_compress(iv, [key[:, k] ^ 0x36363636 for k in range(16)])
    outer = sha256_compress(iv, [key[:, k] ^ 0x5C5C5C5C for k in range(16)])
    s = (salt.long() & M32).tolist()
    # U_1: message S || INT(1) (20 bytes) after the 64-byte key block -> length 84 bytes = 672 bits
    x = sha256_compress(inner, s + [1, 0x80000000] + [0] * 9 + [672])
    u = sha256_compress(outer, x + [0x80000000] + [0] * 6 + [768])
    t = list(u)
    for _ in range(1, iterations):
        x = sha256_compress(inner, u + [0x80000000] + [0] * 6 + [768])
        u = sha256_compress(outer, x + [0x80000000] + [0] * 6 + [768])
        t = [a ^ b for a, b in zip(t, u)]
    return to_i32(torch.stack(t, dim=1))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 96 * s["N"] + 16, "flops": 2 * (s["iterations"] + 1) * 64 * 30 * s["N"]}
