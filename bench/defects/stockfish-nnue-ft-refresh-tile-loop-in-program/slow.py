"""NNUE feature-transformer refresh: acc[b, p] = bias + sum of the active features' int16 weight rows."""
import torch
import triton
import triton.language as tl

MAX_ACTIVE = 32


@triton.jit
def _refresh(w, bias, active, n_active, acc, L1,
             MAX_ACTIVE: tl.constexpr, BLOCK: tl.constexpr):
    pos = tl.program_id(0)
    persp = tl.program_id(1)
    state = pos * 2 + persp
    n = tl.load(n_active + state)
    # Stockfish's tile loop: one register tile of the accumulator at a time, every active row added into it
    for start in range(0, L1, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        col_ok = cols < L1
        a = tl.load(bias + cols, mask=col_ok, other=0).to(tl.int32)
        for k in range(n):
            f = tl.load(active + state * MAX_ACTIVE + k)
            a += tl.load(w + f * L1 + cols, mask=col_ok, other=0).to(tl.int32)
        tl.store(acc + state * L1 + cols, a.to(tl.int16), mask=col_ok)


def run(w, bias, active, n_active):
    B = active.shape[0]
    L1 = w.shape[1]
    acc = torch.empty(B, 2, L1, device=w.device, dtype=w.dtype)
    block = min(512, triton.next_power_of_2(L1))
    _refresh[(B, 2)](w, bias, active, n_active, acc, L1,
                     MAX_ACTIVE=MAX_ACTIVE, BLOCK=block, num_warps=4)
    return acc
