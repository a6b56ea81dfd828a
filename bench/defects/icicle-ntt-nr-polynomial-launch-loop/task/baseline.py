"""Batched BabyBear NTT (natural in, bit-reversed out): one program per polynomial, all stages in registers."""
import torch
import triton
import triton.language as tl

P = tl.constexpr(2013265921)
P_INV = tl.constexpr(2281701377)  # p^-1 mod 2^32


@triton.jit
def _mont_mul(a, b):
    lo = a * b
    hi = tl.umulhi(a, b)
    q = tl.umulhi(lo * P_INV, tl.full(a.shape, P, tl.uint32))
    r = hi - q
    return tl.where(hi < q, r + P, r)


@triton.jit
def _add_mod(a, b):
    s = a + b
    return tl.where(s >= P, s - P, s)


@triton.jit
def _sub_mod(a, b):
    return tl.where(a >= b, a - b, a + P - b)


@triton.jit
def _ntt_nr(x_ptr, tw_ptr, out_ptr, stride, N: tl.constexpr, LOGN: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + row * stride + offs).to(tl.uint32)
    j = tl.arange(0, N // 2)
    for s in tl.static_range(LOGN):
        w = tl.load(tw_ptr + ((j >> s) << s)).to(tl.uint32)
        a, b = tl.split(tl.permute(tl.reshape(x, [2, N // 2]), [1, 0]))
        x = tl.reshape(tl.join(_add_mod(a, b), _mont_mul(_sub_mod(a, b), w)), [N])
    tl.store(out_ptr + row * stride + offs, x.to(tl.int32))


def run(coeffs: torch.Tensor, twiddles: torch.Tensor) -> torch.Tensor:
    B, n = coeffs.shape
    coeffs = coeffs.contiguous()
    out = torch.empty_like(coeffs)
    logn = n.bit_length() - 1
    _ntt_nr[(B,)](coeffs, twiddles, out, coeffs.stride(0), N=n, LOGN=logn,
                  num_warps=8 if n >= 4096 else 4)
    return out
