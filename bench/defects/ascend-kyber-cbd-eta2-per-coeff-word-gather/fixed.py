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
    i = tl.arange(0, NW)
    j = tl.arange(0, 8)
    # field j of a word: bits 4j, 4j+1 (a) and 4j+2, 4j+3 (b); multiplying by 2^(30 - 4j) (the vector unit
    # shifts only by a scalar) moves them to the top, >> 30 back
    up_a = (1 << (30 - 4 * j))[None, None, :]
    up_b = (1 << (28 - 4 * j))[None, None, :]
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        rows = blk * BP + tl.arange(0, BP)
        rmask = rows < P
        t = tl.load(words + rows[:, None] * NW + i[None, :], mask=rmask[:, None], other=0)
        d = (t & _HALF_BITS) + ((t >> 1) & _HALF_BITS)
        d3 = d[:, :, None]
        a = ((d3 * up_a) >> 30) & 3
        b = ((d3 * up_b) >> 30) & 3
        dst = coeffs + rows[:, None, None] * (8 * NW) + i[None, :, None] * 8 + j[None, None, :]
        tl.store(dst, a - b, mask=rmask[:, None, None])


def run(words: torch.Tensor) -> torch.Tensor:
    P, NW = words.shape
    coeffs = torch.empty((P, 8 * NW), device=words.device, dtype=torch.int32)
    BP = 8
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _cbd2_fwd[grid](words, coeffs, P, BP=BP, NW=NW)
    return coeffs
