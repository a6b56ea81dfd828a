"""Evaluate a BabyBear polynomial at many points with Horner's rule, one program per point."""
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
    q = tl.umulhi(lo * P_INV, P)
    r = hi - q
    return tl.where(hi < q, r + P, r)


@triton.jit
def _add_mod(a, b):
    s = a + b
    return tl.where(s >= P, s - P, s)


@triton.jit
def _horner(coeffs, points, out, n_coeffs):
    i = tl.program_id(0)
    x = tl.load(points + i).to(tl.uint32)
    x_mont = _mont_mul(x, R2)
    acc = tl.zeros([], dtype=tl.uint32)
    for t in range(0, n_coeffs):
        c = tl.load(coeffs + (n_coeffs - 1 - t)).to(tl.uint32)
        acc = _add_mod(_mont_mul(acc, x_mont), c)
    tl.store(out + i, acc.to(tl.int32))


def run(coeffs: torch.Tensor, points: torch.Tensor) -> torch.Tensor:
    D, M = coeffs.shape[0], points.shape[0]
    out = torch.empty_like(points)
    _horner[(M,)](coeffs, points, out, D, num_warps=1)
    return out
