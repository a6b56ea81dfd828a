"""x * X^k mod (X^N + 1, q_l) for every component and RNS limb (SEAL negacyclic_shift_poly_coeffmod)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _negacyclic_shift(x, moduli, out, R, L, s, N: tl.constexpr, FLIP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, N)
    for row in range(pid, R, nprog):
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
    # one launch over every (ciphertext, component, RNS limb) row
    R = B * C * L
    grid = (min(_VECTOR_CORES, R),)
    _negacyclic_shift[grid](x, moduli, out, R, L, s, N=N, FLIP=flip)
    return out
