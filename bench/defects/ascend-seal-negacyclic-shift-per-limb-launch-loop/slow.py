"""x * X^k mod (X^N + 1, q_l) for every component and RNS limb (SEAL negacyclic_shift_poly_coeffmod)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _negacyclic_shift(x, moduli, out, row, L, s, N: tl.constexpr, FLIP: tl.constexpr):
    j = tl.arange(0, N)
    q = tl.load(moduli + row % L)
    src = x + row * N
    hi = tl.load(src + j - s, mask=j >= s, other=0)        # y[j] = x[j - s]      for j >= s
    lo = tl.load(src + j - s + N, mask=j < s, other=0)     # y[j] = -x[j - s + N] for j <  s
    # negation mod q without a compare: -v is negative unless v == 0, then add q back by its sign bit
    if FLIP:   # k >= N: X^N = -1 negates the whole row, so the unwrapped half is the negated one
        hi = 0 - hi
        hi = hi + ((hi >> 31) & q)
    else:
        lo = 0 - lo
        lo = lo + ((lo >> 31) & q)
    y = hi + lo
    tl.store(out + row * N + j, y)


def run(x: torch.Tensor, moduli: torch.Tensor, k: int) -> torch.Tensor:
    B, C, L, N = x.shape
    out = torch.empty((B, C, L, N), device=x.device, dtype=torch.int32)
    s, flip = k % N, (k // N) % 2 == 1
    # as SEAL / OnionPIR shift a ciphertext: for each ciphertext, each component, each RNS limb
    for b in range(B):
        for c in range(C):
            for l in range(L):
                row = (b * C + c) * L + l
                _negacyclic_shift[(1,)](x, moduli, out, row, L, s, N=N, FLIP=flip)
    return out
