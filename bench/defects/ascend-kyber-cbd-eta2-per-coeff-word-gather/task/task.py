"""ML-KEM (Kyber) centered binomial noise sampling, CBD_eta with eta = 2 (pq-crystals/kyber cbd.c, FIPS 203 SamplePolyCBD).

Every noise polynomial of a batch of ML-KEM-768 encapsulations (r: k = 3 polynomials, e1: 3, e2: 1, all eta = 2)
is sampled from 128 PRF bytes (SHAKE-256 output), read as 32 little-endian 32-bit words t_i. For word i:
    d = (t_i & 0x55555555) + ((t_i >> 1) & 0x55555555)        (pairwise bit sums)
    coeff[8 i + j] = ((d >> 4j) & 3) - ((d >> (4j + 2)) & 3)      j = 0..7
so each word gives 8 consecutive coefficients in [-2, 2]. The PRF words arrive as int32 [P, 32] (the uint32
bit patterns); the coefficients are returned as int32 [P, 256].
"""
import torch

META = {
    "name": "kyber_cbd_eta2",
    "level": 1,
    "category": "lattice_crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"encaps": 2, "polys": 7},
        "ragged": {"encaps": 3, "polys": 7},
        "large": {"encaps": 8192, "polys": 7},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 8 polynomials; each block "
                      "loads its [8, 32] PRF words in one contiguous tile, forms the pairwise bit sums once per "
                      "word and expands them into an [8, 32, 8] coefficient tile (field j of word i is "
                      "coefficient 8i + j), stored contiguously; fields are lifted to the top bits by a multiply "
                      "with 2^(30 - 4j) and brought down by the constant shift 30 (the A2 vector unit shifts "
                      "only by a scalar). No autotune.",
    "deterministic": True,
}

N_COEFFS = 256
N_WORDS = 32


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """PRF output words int32 [P, 32] (uniform 32-bit patterns), P = encaps * polys."""
    s = META["sizes"][size]
    p = s["encaps"] * s["polys"]
    g = torch.Generator().manual_seed(seed)
    words = torch.randint(-(2 ** 31), 2 ** 31, (p, N_WORDS), generator=g, dtype=torch.int64)
    return (words.to(torch.int32).to(device),)


def reference(words: torch.Tensor) -> torch.Tensor:
    t = words.long() & 0xFFFFFFFF                                    # the uint32 bit pattern
    bits = (t[:, :, None] >> torch.arange(32, device=t.device)) & 1  # [P, 32, 32] bit k of word i
    bits = bits.view(t.shape[0], N_WORDS, 8, 4)                      # per coefficient: a0 a1 b0 b1
    coeff = bits[..., 0] + bits[..., 1] - bits[..., 2] - bits[..., 3]
    return coeff.reshape(t.shape[0], N_COEFFS).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p = s["encaps"] * s["polys"]
    return {"bytes": p * (4 * N_WORDS + 4 * N_COEFFS), "flops": 10 * p * N_COEFFS}
