"""NNUE accumulators along game lines: incremental HalfKAv2_hm updates, refresh on own-king moves."""
import torch
import triton
import triton.language as tl

MAX_ACTIVE = 32


@triton.jit
def _line_update(w, bias, active, n_active, removed, added, refresh, acc, T, L1,
                 MAX_ACTIVE: tl.constexpr, BLOCK: tl.constexpr):
    line = tl.program_id(0)
    persp = tl.program_id(1)
    cols = tl.program_id(2) * BLOCK + tl.arange(0, BLOCK)
    col_ok = cols < L1
    a = tl.zeros([BLOCK], dtype=tl.int32)
    for t in range(T):
        state = (line * T + t) * 2 + persp
        if tl.load(refresh + state) != 0:
            # own king moved (or first position of the line): rebuild from the active list
            a = tl.load(bias + cols, mask=col_ok, other=0).to(tl.int32)
            n = tl.load(n_active + state)
            for k in range(n):
                f = tl.load(active + state * MAX_ACTIVE + k)
                a += tl.load(w + f * L1 + cols, mask=col_ok, other=0).to(tl.int32)
        else:
            for s in tl.static_range(2):
                r = tl.load(removed + state * 2 + s)
                a -= tl.load(w + r * L1 + cols, mask=col_ok & (r >= 0), other=0).to(tl.int32)
                d = tl.load(added + state * 2 + s)
                a += tl.load(w + d * L1 + cols, mask=col_ok & (d >= 0), other=0).to(tl.int32)
        tl.store(acc + state * L1 + cols, a.to(tl.int16), mask=col_ok)


def run(w, bias, active, n_active, removed, added, refresh):
    G, T = active.shape[0], active.shape[1]
    L1 = w.shape[1]
    acc = torch.empty(G, T, 2, L1, device=w.device, dtype=w.dtype)
    block = min(512, triton.next_power_of_2(L1))
    grid = (G, 2, triton.cdiv(L1, block))
    _line_update[grid](w, bias, active, n_active, removed, added, refresh, acc, T, L1,
                       MAX_ACTIVE=MAX_ACTIVE, BLOCK=block, num_warps=4)
    return acc
