"""Renyi-DP epsilon for a sweep of DP-SGD configs (sampled Gaussian mechanism, integer orders)."""
import math

import torch
import triton
import triton.language as tl

BLOCK_C = 16


@triton.jit
def _rdp_epsilon(q_ptr, sigma_ptr, steps_ptr, eps_ptr, n_cfg, n_orders, log_delta,
                 BLOCK_C: tl.constexpr, ORDERS: tl.constexpr):
    cfg = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cfg_ok = cfg < n_cfg
    q = tl.load(q_ptr + cfg, mask=cfg_ok, other=0.5)
    sigma = tl.load(sigma_ptr + cfg, mask=cfg_ok, other=1.0)
    steps = tl.load(steps_ptr + cfg, mask=cfg_ok, other=0).to(tl.float32)

    k = tl.arange(0, ORDERS)
    alpha = (k + 2).to(tl.float32)
    log_q = tl.log(q)
    one_m_q = 1.0 - q
    log_1mq = tl.log(one_m_q) * (q / (1.0 - one_m_q))   # log1p(-q) without the cancellation in 1 - q
    half_inv_var = 0.5 / (sigma * sigma)

    run_max = tl.full([BLOCK_C, ORDERS], float("-inf"), tl.float32)
    run_sum = tl.zeros([BLOCK_C, ORDERS], dtype=tl.float32)
    log_binom = tl.zeros([ORDERS], dtype=tl.float32)            # log C(alpha, i), carried over i
    for i in range(0, n_orders + 2):
        fi = tl.cast(i, tl.float32)
        term = (log_binom[None, :] + fi * log_q[:, None] + (alpha[None, :] - fi) * log_1mq[:, None]
                + (fi * fi - fi) * half_inv_var[:, None])
        live = (fi <= alpha)[None, :]
        e = tl.exp(-tl.abs(term - run_max))
        grown = tl.where(term > run_max, run_sum * e + 1.0, run_sum + e)
        run_sum = tl.where(live, grown, run_sum)
        run_max = tl.where(live, tl.maximum(run_max, term), run_max)
        log_binom += tl.log(tl.maximum(alpha - fi, 1.0)) - tl.log(fi + 1.0)

    log_a = run_max + tl.log(run_sum)
    am1 = alpha[None, :] - 1.0
    eps = (steps[:, None] * log_a / am1 - (log_delta + tl.log(alpha[None, :])) / am1
           + tl.log(am1 / alpha[None, :]))
    eps = tl.where((k < n_orders)[None, :], eps, float("inf"))
    tl.store(eps_ptr + cfg, tl.min(eps, axis=1), mask=cfg_ok)


def run(q: torch.Tensor, sigma: torch.Tensor, steps: torch.Tensor, delta: float, n_orders: int) -> torch.Tensor:
    n_cfg = q.shape[0]
    eps = torch.empty(n_cfg, device=q.device, dtype=torch.float32)
    grid = (triton.cdiv(n_cfg, BLOCK_C),)
    _rdp_epsilon[grid](q, sigma, steps, eps, n_cfg, n_orders, math.log(delta),
                       BLOCK_C=BLOCK_C, ORDERS=triton.next_power_of_2(n_orders), num_warps=4)
    return eps
