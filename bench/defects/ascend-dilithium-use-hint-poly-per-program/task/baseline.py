"""ML-DSA-65 UseHint: w1' = UseHint(h, w'_approx) coefficient-wise (gamma2 = (q - 1) / 32)."""
import torch
import triton
import triton.language as tl

_Q = tl.constexpr(8380417)
_GAMMA2 = tl.constexpr((8380417 - 1) // 32)
_VECTOR_CORES = 40


@triton.jit
def _use_hint_fwd(w, h, out, R, BR: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, N)
    for blk in range(pid, tl.cdiv(R, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows[:, None] < R
        offs = rows[:, None] * N + cols[None, :]
        a = tl.load(w + offs, mask=rmask, other=0)
        hint = tl.load(h + offs, mask=rmask, other=0).to(tl.int32)
        # Decompose: a1 = round(a / 2 gamma2) by multiply-shift, a0 = a - a1 * 2 gamma2, centred by a sign shift
        a1 = (a + 127) >> 7
        a1 = (a1 * 1025 + (1 << 21)) >> 22
        a1 = a1 & 15
        a0 = a - a1 * (2 * _GAMMA2)
        a0 = a0 - ((((_Q - 1) // 2 - a0) >> 31) & _Q)
        # UseHint: +1 when a0 > 0, -1 otherwise, mod 16, only where the hint bit is set
        pos = ((0 - a0) >> 31) & 1
        a1 = (a1 + hint * (2 * pos - 1)) & 15
        tl.store(out + offs, a1, mask=rmask)


def run(w: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    B, K, N = w.shape
    R = B * K
    out = torch.empty((B, K, N), device=w.device, dtype=torch.int32)
    BR = 8
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BR)),)
    _use_hint_fwd[grid](w, h, out, R, BR=BR, N=N)
    return out
