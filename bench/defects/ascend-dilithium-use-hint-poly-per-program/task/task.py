"""ML-DSA (Dilithium) UseHint in batched signature verification (pq-crystals/dilithium rounding.c use_hint /
poly_use_hint, FIPS 204 Algorithm 40), ML-DSA-65 parameters: q = 8380417, gamma2 = (q - 1) / 32 = 261888, k = 6.

Verification recomputes w'_approx = A z - c t1 2^d (coefficients in [0, q)) and recovers w1' = UseHint(h, w'_approx)
coefficient-wise, with the signature's hint bits h:
    Decompose(r):  r0 = r mod+- 2 gamma2 (centred),  r1 = (r - r0) / (2 gamma2),
                   except r - r0 = q - 1, where r1 = 0 and r0 = r0 - 1
    UseHint(h, r): (r1 + 1) mod 16 if h = 1 and r0 > 0;  (r1 - 1) mod 16 if h = 1 and r0 <= 0;  r1 if h = 0
Inputs: w [B, k, 256] int32 in [0, q), h [B, k, 256] int8 in {0, 1}; output w1' [B, k, 256] int32 in [0, 16).
"""
import torch

Q = 8380417
GAMMA2 = (Q - 1) // 32

META = {
    "name": "mldsa_use_hint",
    "level": 1,
    "category": "lattice_crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "K": 6, "N": 256},
        "ragged": {"B": 5, "K": 6, "N": 256},
        "large": {"B": 8192, "K": 6, "N": 256},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 8 polynomials x 256 "
                      "coefficients ([8, 256] tiles, 8 KiB of w per step); decompose and hint correction are "
                      "branch-free int32 arithmetic as in the reference C code (multiply-shift for r1, sign "
                      "shifts instead of compares). No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """w'_approx int32 [B, K, N] uniform in [0, q); hint bits int8 [B, K, N] (about 1 in 8 set)."""
    s = META["sizes"][size]
    shape = (s["B"], s["K"], s["N"])
    g = torch.Generator().manual_seed(seed)
    w = torch.randint(0, Q, shape, generator=g, dtype=torch.int64)
    h = (torch.rand(shape, generator=g) < 0.125).to(torch.int8)
    return w.to(torch.int32).to(device), h.to(device)


def reference(w: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    r = w.long() % Q
    r0 = r % (2 * GAMMA2)
    r0 = torch.where(r0 > GAMMA2, r0 - 2 * GAMMA2, r0)
    edge = (r - r0) == Q - 1
    r1 = torch.where(edge, torch.zeros_like(r), (r - r0) // (2 * GAMMA2))
    r0 = torch.where(edge, r0 - 1, r0)
    m = (Q - 1) // (2 * GAMMA2)
    hinted = torch.where(r0 > 0, (r1 + 1) % m, (r1 - 1) % m)
    return torch.where(h.long() == 1, hinted, r1).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["K"] * s["N"]
    return {"bytes": 9 * n, "flops": 14 * n}
