"""Poseidon2 permutation over BabyBear (p = 15 * 2^27 + 1), width 16, applied to many independent states.

Plonky3's Poseidon2BabyBear<16>: S-box x^7, 8 full rounds (4 before, 4 after) and 13 partial rounds.
External layer: Plonky3's MDSMat4 circ(2, 3, 1, 1) on each chunk of 4, then every element adds the
sum of its position over the 4 chunks (the circ(2M4, M4, M4, M4) matrix); applied once before the
first round. Internal layer: 1 + Diag(V), y_i = V_i x_i + sum_j x_j, with Plonky3's BabyBear16 diagonal
V = [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/2^27, -1/2^8, -1/16, -1/2^27] mod p.
Round constants are seeded random field elements. All values are canonical field elements in int32.
"""
import torch

P = 2013265921
WIDTH = 16
ROUNDS_F = 8
ROUNDS_P = 13


def _inv(a: int) -> int:
    return pow(a, P - 2, P)


_DIAG = [-2, 1, 2, _inv(2), 3, 4, -_inv(2), -3, -4, _inv(1 << 8), _inv(4), _inv(8), _inv(1 << 27),
         -_inv(1 << 8), -_inv(16), -_inv(1 << 27)]
DIAG = [d % P for d in _DIAG]

META = {
    "name": "poseidon2_babybear16_permute",
    "level": 3,
    "category": "hash",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"n": 40},
        "ragged": {"n": 77},
        "large": {"n": 1048576},
    },
    "baseline_notes": "BLOCK = 64 states per program as a [64, 16] tile in Montgomery form (32-bit Montgomery "
                      "multiply with tl.umulhi, constexpr modulus); external layer by reshape/split into the "
                      "four chunk positions and Plonky3's circ(2,3,1,1) addition chain, partial rounds on "
                      "column 0 only; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """states [n, 16], rc_ext [8, 16], rc_int [13], diag [16]: int32 canonical BabyBear elements."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    states = torch.randint(0, P, (n, WIDTH), generator=g, dtype=torch.int64)
    rc_ext = torch.randint(0, P, (ROUNDS_F, WIDTH), generator=g, dtype=torch.int64)
    rc_int = torch.randint(0, P, (ROUNDS_P,), generator=g, dtype=torch.int64)
    diag = torch.tensor(DIAG, dtype=torch.int64)
    return tuple(t.to(torch.int32).to(device) for t in (states, rc_ext, rc_int, diag))


def _sbox(x):
    x2 = x * x % P
    x3 = x2 * x % P
    return x3 * x3 % P * x % P


def _external(x):
    c = x.view(-1, 4, 4)
    x0, x1, x2, x3 = c.unbind(-1)
    y = torch.stack((2 * x0 + 3 * x1 + x2 + x3, x0 + 2 * x1 + 3 * x2 + x3,
                     x0 + x1 + 2 * x2 + 3 * x3, 3 * x0 + x1 + x2 + 2 * x3), dim=-1) % P
    return ((y + y.sum(dim=1, keepdim=True)) % P).view(-1, WIDTH)


def reference(states: torch.Tensor, rc_ext: torch.Tensor, rc_int: torch.Tensor, diag: torch.Tensor) -> torch.Tensor:
    x = states.long()
    e, i, d = rc_ext.long(), rc_int.long(), diag.long()
    x = _external(x)
    for r in range(ROUNDS_F):
        if r == ROUNDS_F // 2:
            for k in range(ROUNDS_P):
                x0 = _sbox((x[:, 0] + i[k]) % P)
                x = torch.cat((x0[:, None], x[:, 1:]), dim=1)
                x = (x * d + x.sum(dim=1, keepdim=True)) % P
        x = _external(_sbox((x + e[r]) % P))
    return x.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 2 * 4 * WIDTH * n, "flops": 1200 * n}
