"""GARCH(1,1) variance filter + Gaussian NLL: one program per series; the variance recursion is a
first-order linear recurrence, scanned chunk by chunk with the last variance carried in."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _affine_combine(a_l, b_l, a_r, b_r):
    return a_l * a_r, b_l * a_r + b_r


@triton.jit
def _gauss_nll_terms(h, r):
    return tl.log(h) + r * r / h


@triton.jit
def garch_filter_kernel(ret_ptr, omega_ptr, alpha_ptr, beta_ptr, backcast_ptr, sigma2_ptr, nll_ptr,
                        T, stride_ret, stride_sig, LOG_2PI: tl.constexpr, BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    omega = tl.load(omega_ptr + row)
    alpha = tl.load(alpha_ptr + row)
    beta = tl.load(beta_ptr + row)
    backcast = tl.load(backcast_ptr + row)
    ret_row = ret_ptr + row.to(tl.int64) * stride_ret
    sig_row = sigma2_ptr + row.to(tl.int64) * stride_sig
    h_prev = backcast
    acc = tl.zeros([BLOCK_T], dtype=tl.float32)
    for start in range(0, T, BLOCK_T):
        t = start + tl.arange(0, BLOCK_T)
        live = t < T
        r_prev = tl.load(ret_row + t - 1, mask=live & (t > 0), other=0.0)
        e_prev = tl.where(t == 0, backcast, r_prev * r_prev)
        u = omega + alpha * e_prev
        decay = tl.zeros([BLOCK_T], dtype=tl.float32) + beta
        decay_run, u_run = tl.associative_scan((decay, u), 0, _affine_combine)
        h = u_run + decay_run * h_prev
        tl.store(sig_row + t, h, mask=live)
        r_t = tl.load(ret_row + t, mask=live, other=0.0)
        acc += tl.where(live, _gauss_nll_terms(h, r_t), 0.0)
        h_prev = tl.sum(tl.where(t == start + BLOCK_T - 1, h, 0.0), axis=0)
    tl.store(nll_ptr + row, 0.5 * (T * LOG_2PI + tl.sum(acc, axis=0)))


def run(returns: torch.Tensor, omega: torch.Tensor, alpha: torch.Tensor, beta: torch.Tensor,
        backcast: torch.Tensor):
    A, T = returns.shape
    sigma2 = torch.empty_like(returns)
    nll = torch.empty(A, dtype=returns.dtype, device=returns.device)
    launch = {"num_warps": 4}
    garch_filter_kernel[(A,)](returns, omega, alpha, beta, backcast, sigma2, nll, T,
                              returns.stride(0), sigma2.stride(0),
                              LOG_2PI=math.log(2 * math.pi), BLOCK_T=1024, **launch)
    return sigma2, nll
