"""Biquad lfilter along time, one program per channel, chunked over time."""
import torch
import triton
import triton.language as tl


@triton.jit
def _biquad_coeffs(b_ptr, a_ptr, ch):
    inv_a0 = 1.0 / tl.load(a_ptr + ch * 3)
    b0 = tl.load(b_ptr + ch * 3) * inv_a0
    b1 = tl.load(b_ptr + ch * 3 + 1) * inv_a0
    b2 = tl.load(b_ptr + ch * 3 + 2) * inv_a0
    a1 = tl.load(a_ptr + ch * 3 + 1) * inv_a0
    a2 = tl.load(a_ptr + ch * 3 + 2) * inv_a0
    return b0, b1, b2, a1, a2


@triton.jit
def _compose(p00, p01, p10, p11, pu0, pu1, q00, q01, q10, q11, qu0, qu1):
    # z -> Q (P z + pu) + qu
    return (q00 * p00 + q01 * p10, q00 * p01 + q01 * p11,
            q10 * p00 + q11 * p10, q10 * p01 + q11 * p11,
            q00 * pu0 + q01 * pu1 + qu0, q10 * pu0 + q11 * pu1 + qu1)


@triton.jit
def lfilter_biquad_kernel(x_ptr, b_ptr, a_ptr, y_ptr, T, stride_x, stride_y, CHUNK: tl.constexpr):
    ch = tl.program_id(0)
    b0, b1, b2, a1, a2 = _biquad_coeffs(b_ptr, a_ptr, ch)
    x_row = x_ptr + ch.to(tl.int64) * stride_x
    y_row = y_ptr + ch.to(tl.int64) * stride_y
    idx = tl.arange(0, CHUNK)
    zero = tl.zeros([CHUNK], dtype=tl.float32)
    y_prev1 = 0.0
    y_prev2 = 0.0
    for t0 in range(0, T, CHUNK):
        t = t0 + idx
        live = t < T
        xn = tl.load(x_row + t, mask=live, other=0.0)
        xn1 = tl.load(x_row + t - 1, mask=live & (t >= 1), other=0.0)
        xn2 = tl.load(x_row + t - 2, mask=live & (t >= 2), other=0.0)
        w = b0 * xn + b1 * xn1 + b2 * xn2
        # (y[n], y[n-1]) = A (y[n-1], y[n-2]) + (w[n], 0),  A = [[-a1, -a2], [1, 0]]
        m00, m01, m10, m11, u0, u1 = tl.associative_scan(
            (zero - a1, zero - a2, zero + 1.0, zero, w, zero), 0, _compose)
        yn = u0 + m00 * y_prev1 + m01 * y_prev2
        yn1 = u1 + m10 * y_prev1 + m11 * y_prev2
        tl.store(y_row + t, yn, mask=live)
        end = idx == CHUNK - 1
        y_prev1 = tl.sum(tl.where(end, yn, 0.0), axis=0)
        y_prev2 = tl.sum(tl.where(end, yn1, 0.0), axis=0)


def run(x: torch.Tensor, b_coeffs: torch.Tensor, a_coeffs: torch.Tensor) -> torch.Tensor:
    C, T = x.shape
    y = torch.empty_like(x)
    launch = {"num_warps": 4}
    lfilter_biquad_kernel[(C,)](x, b_coeffs, a_coeffs, y, T, x.stride(0), y.stride(0), CHUNK=1024, **launch)
    return y
