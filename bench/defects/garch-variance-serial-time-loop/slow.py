"""GARCH(1,1) variance filter + Gaussian NLL: one program per series, following arch's
garch_recursion step by step."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _gauss_nll_terms(h, r):
    return tl.log(h) + r * r / h


@triton.jit
def garch_filter_kernel(ret_ptr, omega_ptr, alpha_ptr, beta_ptr, backcast_ptr, sigma2_ptr, nll_ptr,
                        T, stride_ret, stride_sig, LOG_2PI: tl.constexpr):
    row = tl.program_id(0)
    omega = tl.load(omega_ptr + row)
    alpha = tl.load(alpha_ptr + row)
    beta = tl.load(beta_ptr + row)
    backcast = tl.load(backcast_ptr + row)
    ret_row = ret_ptr + row.to(tl.int64) * stride_ret
    sig_row = sigma2_ptr + row.to(tl.int64) * stride_sig
    h = omega + (alpha + beta) * backcast
    tl.store(sig_row, h)
    r_prev = tl.load(ret_row)
    acc = _gauss_nll_terms(h, r_prev)
    for t in range(1, T):
        h = omega + alpha * r_prev * r_prev + beta * h
        tl.store(sig_row + t, h)
        r_prev = tl.load(ret_row + t)
        acc += _gauss_nll_terms(h, r_prev)
    tl.store(nll_ptr + row, 0.5 * (T * LOG_2PI + acc))


def run(returns: torch.Tensor, omega: torch.Tensor, alpha: torch.Tensor, beta: torch.Tensor,
        backcast: torch.Tensor):
    A, T = returns.shape
    sigma2 = torch.empty_like(returns)
    nll = torch.empty(A, dtype=returns.dtype, device=returns.device)
    launch = {"num_warps": 4}
    garch_filter_kernel[(A,)](returns, omega, alpha, beta, backcast, sigma2, nll, T,
                              returns.stride(0), sigma2.stride(0),
                              LOG_2PI=math.log(2 * math.pi), **launch)
    return sigma2, nll
