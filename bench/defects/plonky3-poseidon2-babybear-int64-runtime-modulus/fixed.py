"""Poseidon2 (BabyBear, width 16) over many states: BLOCK states per program as a [BLOCK, 16] tile."""
import torch
import triton
import triton.language as tl

P = tl.constexpr(2013265921)
P_INV = tl.constexpr(2281701377)  # p^-1 mod 2^32
R2 = tl.constexpr(1172168163)  # 2^64 mod p


@triton.jit
def _mul(a, b):
    lo = a * b
    hi = tl.umulhi(a, b)
    q = tl.umulhi(lo * P_INV, tl.full(lo.shape, P, tl.uint32))
    r = hi - q
    return tl.where(hi < q, r + P, r)


@triton.jit
def _add(a, b):
    s = a + b
    return tl.where(s >= P, s - P, s)


@triton.jit
def _to_mont(x):
    return _mul(x.to(tl.uint32), tl.full(x.shape, R2, tl.uint32))


@triton.jit
def _sbox(x):
    x3 = _mul(_mul(x, x), x)
    return _mul(_mul(x3, x3), x)


@triton.jit
def _row_sum(x, BLOCK: tl.constexpr, LOG_W: tl.constexpr):
    for _ in tl.static_range(LOG_W):
        a, b = tl.split(tl.reshape(x, [BLOCK, x.shape[1] // 2, 2]))
        x = _add(a, b)
    return tl.reshape(x, [BLOCK])


@triton.jit
def _external(x, BLOCK: tl.constexpr):
    even, odd = tl.split(tl.reshape(x, [BLOCK, 4, 2, 2]))
    x0, x2 = tl.split(even)
    x1, x3 = tl.split(odd)
    t01 = _add(x0, x1)
    t23 = _add(x2, x3)
    t0123 = _add(t01, t23)
    t01123 = _add(t0123, x1)
    t01233 = _add(t0123, x3)
    y0 = _add(t01123, t01)
    y1 = _add(t01123, _add(x2, x2))
    y2 = _add(t01233, t23)
    y3 = _add(t01233, _add(x0, x0))
    y0 = _add(y0, _row_sum(y0, BLOCK, 2)[:, None])
    y1 = _add(y1, _row_sum(y1, BLOCK, 2)[:, None])
    y2 = _add(y2, _row_sum(y2, BLOCK, 2)[:, None])
    y3 = _add(y3, _row_sum(y3, BLOCK, 2)[:, None])
    return tl.reshape(tl.join(tl.join(y0, y2), tl.join(y1, y3)), [BLOCK, 16])


@triton.jit
def _poseidon2_16(states, rc_ext, rc_int, diag, out, n, BLOCK: tl.constexpr,
                  ROUNDS_F: tl.constexpr, ROUNDS_P: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.arange(0, 16)
    mask = (rows < n)[:, None]
    offs = rows[:, None] * 16 + cols[None, :]
    x = _to_mont(tl.load(states + offs, mask=mask, other=0))
    first = (cols == 0)[None, :]
    d = _to_mont(tl.load(diag + cols))[None, :]
    x = _external(x, BLOCK)
    for r in range(ROUNDS_F // 2):
        x = _external(_sbox(_add(x, _to_mont(tl.load(rc_ext + r * 16 + cols))[None, :])), BLOCK)
    for k in range(ROUNDS_P):
        x0 = tl.sum(tl.where(first, x, 0), axis=1)
        x0 = _sbox(_add(x0, _to_mont(tl.load(rc_int + k))))
        x = tl.where(first, x0[:, None], x)
        x = _add(_mul(x, d), _row_sum(x, BLOCK, 4)[:, None])
    for r in range(ROUNDS_F // 2, ROUNDS_F):
        x = _external(_sbox(_add(x, _to_mont(tl.load(rc_ext + r * 16 + cols))[None, :])), BLOCK)
    x = _mul(x, tl.full(x.shape, 1, tl.uint32))
    tl.store(out + offs, x.to(tl.int32), mask=mask)


def run(states: torch.Tensor, rc_ext: torch.Tensor, rc_int: torch.Tensor, diag: torch.Tensor) -> torch.Tensor:
    n = states.shape[0]
    states = states.contiguous()
    out = torch.empty_like(states)
    BLOCK = 64
    _poseidon2_16[(triton.cdiv(n, BLOCK),)](states, rc_ext, rc_int, diag, out, n, BLOCK=BLOCK,
                                             ROUNDS_F=rc_ext.shape[0], ROUNDS_P=rc_int.shape[0], num_warps=4)
    return out
