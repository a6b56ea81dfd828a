"""Poseidon2 (BabyBear, width 16) over many states: BLOCK states per program as a [BLOCK, 16] tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mul(a, b, p):
    return (a * b) % p


@triton.jit
def _add(a, b, p):
    return (a + b) % p


@triton.jit
def _sbox(x, p):
    x3 = _mul(_mul(x, x, p), x, p)
    return _mul(_mul(x3, x3, p), x, p)


@triton.jit
def _external(x, p, BLOCK: tl.constexpr):
    even, odd = tl.split(tl.reshape(x, [BLOCK, 4, 2, 2]))
    x0, x2 = tl.split(even)
    x1, x3 = tl.split(odd)
    t01 = _add(x0, x1, p)
    t23 = _add(x2, x3, p)
    t0123 = _add(t01, t23, p)
    t01123 = _add(t0123, x1, p)
    t01233 = _add(t0123, x3, p)
    y0 = _add(t01123, t01, p)
    y1 = _add(t01123, _add(x2, x2, p), p)
    y2 = _add(t01233, t23, p)
    y3 = _add(t01233, _add(x0, x0, p), p)
    y0 = _add(y0, tl.sum(y0, axis=1)[:, None], p)
    y1 = _add(y1, tl.sum(y1, axis=1)[:, None], p)
    y2 = _add(y2, tl.sum(y2, axis=1)[:, None], p)
    y3 = _add(y3, tl.sum(y3, axis=1)[:, None], p)
    return tl.reshape(tl.join(tl.join(y0, y2), tl.join(y1, y3)), [BLOCK, 16])


@triton.jit
def _poseidon2_16(states, rc_ext, rc_int, diag, out, n, p, BLOCK: tl.constexpr,
                  ROUNDS_F: tl.constexpr, ROUNDS_P: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.arange(0, 16)
    mask = (rows < n)[:, None]
    offs = rows[:, None] * 16 + cols[None, :]
    x = tl.load(states + offs, mask=mask, other=0).to(tl.int64)
    first = (cols == 0)[None, :]
    d = tl.load(diag + cols).to(tl.int64)[None, :]
    x = _external(x, p, BLOCK)
    for r in range(ROUNDS_F // 2):
        x = _external(_sbox(_add(x, tl.load(rc_ext + r * 16 + cols).to(tl.int64)[None, :], p), p), p, BLOCK)
    for k in range(ROUNDS_P):
        x0 = tl.sum(tl.where(first, x, 0), axis=1)
        x0 = _sbox(_add(x0, tl.load(rc_int + k).to(tl.int64), p), p)
        x = tl.where(first, x0[:, None], x)
        x = _add(_mul(x, d, p), tl.sum(x, axis=1)[:, None], p)
    for r in range(ROUNDS_F // 2, ROUNDS_F):
        x = _external(_sbox(_add(x, tl.load(rc_ext + r * 16 + cols).to(tl.int64)[None, :], p), p), p, BLOCK)
    tl.store(out + offs, x.to(tl.int32), mask=mask)


def run(states: torch.Tensor, rc_ext: torch.Tensor, rc_int: torch.Tensor, diag: torch.Tensor) -> torch.Tensor:
    n = states.shape[0]
    states = states.contiguous()
    out = torch.empty_like(states)
    p = 2013265921
    BLOCK = 64
    _poseidon2_16[(triton.cdiv(n, BLOCK),)](states, rc_ext, rc_int, diag, out, n, p, BLOCK=BLOCK,
                                             ROUNDS_F=rc_ext.shape[0], ROUNDS_P=rc_int.shape[0], num_warps=4)
    return out
