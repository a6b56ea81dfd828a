"""ML-KEM CBD_2 noise sampling: 32 PRF words -> 256 coefficients in [-2, 2] per polynomial."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_HALF_BITS = tl.constexpr(0x55555555)


@triton.jit
def _cbd2_fwd(words, coeffs, P, BP: tl.constexpr, NW: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    c = tl.arange(0, 8 * NW)
    # one lane per coefficient: c comes from field j = c & 7 of word c >> 3: bits 4j, 4j+1 (a) and 4j+2, 4j+3 (b);
    # multiplying by 2^(30 - 4j) (the vector unit shifts only by a scalar) moves them to the top, >> 30 back
    word = c >> 3
    j = c & 7
    up_a = (1 << (30 - 4 * j))[None, :]
    up_b = (1 << (28 - 4 * j))[None, :]
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        t = tl.load(words + rows[:, None] * NW + word[None, :], mask=rmask[:, None], other=0)
        d = (t & _HALF_BITS) + ((t >> 1) & _HALF_BITS)
        a = ((d * up_a) >> 30) & 3
        b = ((d * up_b) >> 30) & 3
        dst = coeffs + rows[:, None] * (8 * NW) + c[None, :]
        tl.store(dst, a - b, mask=rmask[:, None])


def run(words: torch.Tensor) -> torch.Tensor:
    P, NW = words.shape
    coeffs = torch.empty((P, 8 * NW), device=words.device, dtype=torch.int32)
    BP = 8
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _cbd2_fwd[grid](words, coeffs, P, BP=BP, NW=NW)
    return coeffs
