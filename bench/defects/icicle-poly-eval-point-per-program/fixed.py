"""Evaluate a BabyBear polynomial at many points with Horner's rule, BLOCK points per program."""
import torch
import triton
import triton.language as tl

P = tl.constexpr(2013265921)
P_INV = tl.constexpr(2281701377)  # p^-1 mod 2^32
R2 = tl.constexpr(1172168163)  # 2^64 mod p


@triton.jit
def _mont_mul(a, b):
    lo = a * b
    hi = tl.umulhi(a, b)
    q = tl.umulhi(lo * P_INV, tl.full(lo.shape, P, tl.uint32))
    r = hi - q
    return tl.where(hi < q, r + P, r)


@triton.jit
def _add_mod(a, b):
    s = a + b
    return tl.where(s >= P, s - P, s)


@triton.jit
def _horner(coeffs, points, out, n_coeffs, n_points, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < n_points
    x = tl.load(points + idx, mask=mask, other=0).to(tl.uint32)
    x_mont = _mont_mul(x, tl.full([BLOCK], R2, tl.uint32))
    acc = tl.zeros([BLOCK], dtype=tl.uint32)
    for t in range(0, n_coeffs):
        c = tl.load(coeffs + (n_coeffs - 1 - t)).to(tl.uint32)
        acc = _add_mod(_mont_mul(acc, x_mont), c)
    tl.store(out + idx, acc.to(tl.int32), mask=mask)


def run(coeffs: torch.Tensor, points: torch.Tensor) -> torch.Tensor:
    D, M = coeffs.shape[0], points.shape[0]
    out = torch.empty_like(points)
    BLOCK = 128
    _horner[(triton.cdiv(M, BLOCK),)](coeffs, points, out, D, M, BLOCK=BLOCK, num_warps=4)
    return out
