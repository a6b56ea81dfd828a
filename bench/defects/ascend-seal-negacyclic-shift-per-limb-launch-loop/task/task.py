"""Multiplying RNS ciphertexts by a monomial X^k in Z_q[X]/(X^N + 1) (Microsoft SEAL
util::negacyclic_shift_poly_coeffmod, applied to every component and RNS limb as in SealPIR / OnionPIR
query expansion, where each expansion level multiplies by X^(2N - 2^j) = -X^(N - 2^j)).

For a coefficient vector x of one limb with modulus q and 0 <= k < 2N, X^k * x has, with s = k mod N,
    y[j] = x[j - s]                  for j >= s
    y[j] = -x[j - s + N]  (mod q)    for j <  s
and the whole result negated (mod q) when k >= N; negation mod q maps 0 to 0 and v to q - v.
The ciphertexts use SEAL's 30-bit primes for N = 4096 (CoeffModulus::Create(4096, {30, 30}):
q = 1073692673, 1073668097, both = 1 mod 2N), so coefficients are stored as int32.
Inputs: x int32 [B, 2, L, N] with x[..., l, :] in [0, q_l), moduli int32 [L], k (int). Output like x.
"""
import torch

META = {
    "name": "negacyclic_shift_rns",
    "level": 1,
    "category": "lattice_crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "L": 2, "N": 64, "k": 23},
        "ragged": {"B": 5, "L": 3, "N": 128, "k": 77},
        "large": {"B": 1024, "L": 2, "N": 4096, "k": 8160},
    },
    "baseline_notes": "One launch: 40 programs (the 910B4's vector cores) loop over the B * 2 * L coefficient "
                      "rows, one whole row ([N] tile, 16 KiB at N = 4096) per step: the unwrapped part x[j - s] and the "
                      "wrapped part x[j - s + N] are two contiguous loads masked by j >= s and j < s, each half "
                      "zero where the other one lives; the negated half (q - v, 0 kept at 0) is chosen at "
                      "compile time (k >= N or not) and the row is the sum of the two halves. No autotune.",
    "deterministic": True,
}

PRIMES = (1073692673, 1073668097, 1073651713)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Uniform ciphertext coefficients below each limb's prime, the moduli, and the exponent k.

    Odd seeds use X^(2N - k) instead of X^k (the inverse monomial up to sign), so both halves of [0, 2N) occur.
    """
    s = META["sizes"][size]
    B, L, N = s["B"], s["L"], s["N"]
    g = torch.Generator().manual_seed(seed)
    moduli = torch.tensor(PRIMES[:L], dtype=torch.int64)
    x = (torch.rand(B, 2, L, N, generator=g, dtype=torch.float64) * moduli[:, None]).long()
    x = torch.minimum(x, moduli[:, None] - 1)
    x[..., :: max(1, N // 16)] = 0                      # zero coefficients keep 0 under negation
    k = s["k"] if seed % 2 == 0 else 2 * N - s["k"]
    return x.to(torch.int32).to(device), moduli.to(torch.int32).to(device), int(k)


def reference(x: torch.Tensor, moduli: torch.Tensor, k: int) -> torch.Tensor:
    v = x.long()
    ext = torch.cat([v, -v], dim=-1)                    # x over one period of X^2N = 1: X^N = -1
    y = torch.roll(ext, shifts=k, dims=-1)[..., : x.shape[-1]]
    q = moduli.long()[:, None]
    return torch.remainder(y, q).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * 2 * s["L"] * s["N"]
    return {"bytes": 8 * n, "flops": 3 * n}
