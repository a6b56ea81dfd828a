"""Biquad lfilter along time, one program per channel (transposed direct form II)."""
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
def _df2t_step(xn, s1, s2, b0, b1, b2, a1, a2):
    yn = b0 * xn + s1
    s1 = b1 * xn - a1 * yn + s2
    s2 = b2 * xn - a2 * yn
    return yn, s1, s2


@triton.jit
def lfilter_biquad_kernel(x_ptr, b_ptr, a_ptr, y_ptr, T, stride_x, stride_y):
    ch = tl.program_id(0)
    b0, b1, b2, a1, a2 = _biquad_coeffs(b_ptr, a_ptr, ch)
    x_row = x_ptr + ch.to(tl.int64) * stride_x
    y_row = y_ptr + ch.to(tl.int64) * stride_y
    s1 = 0.0
    s2 = 0.0
    for n in range(0, T):
        xn = tl.load(x_row + n)
        yn, s1, s2 = _df2t_step(xn, s1, s2, b0, b1, b2, a1, a2)
        tl.store(y_row + n, yn)


def run(x: torch.Tensor, b_coeffs: torch.Tensor, a_coeffs: torch.Tensor) -> torch.Tensor:
    C, T = x.shape
    y = torch.empty_like(x)
    launch = {"num_warps": 4}
    lfilter_biquad_kernel[(C,)](x, b_coeffs, a_coeffs, y, T, x.stride(0), y.stride(0), **launch)
    return y
