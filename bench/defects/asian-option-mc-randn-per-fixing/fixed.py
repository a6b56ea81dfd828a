"""Asian call Monte Carlo: one lane per path, four fixings per Philox draw."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gbm_fixing(log_s, total, z, drift, vol, live):
    nxt = log_s + drift + vol * z
    return tl.where(live, nxt, log_s), tl.where(live, total + tl.exp(nxt), total)


@triton.jit
def asian_mc_kernel(params_ptr, out_ptr, n_paths, n_steps, seed, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    paths = pid * BLOCK_P + tl.arange(0, BLOCK_P)
    s0 = tl.load(params_ptr + 0)
    strike = tl.load(params_ptr + 1)
    rate = tl.load(params_ptr + 2)
    sigma = tl.load(params_ptr + 3)
    maturity = tl.load(params_ptr + 4)
    dt = maturity / n_steps
    drift = (rate - 0.5 * sigma * sigma) * dt
    vol = sigma * tl.sqrt(dt)
    log_s = tl.zeros((BLOCK_P,), dtype=tl.float32)
    total = tl.zeros((BLOCK_P,), dtype=tl.float32)
    for t in range(0, n_steps, 4):
        z0, z1, z2, z3 = tl.randn4x(seed, (t // 4) * n_paths + paths)
        log_s, total = _gbm_fixing(log_s, total, z0, drift, vol, t < n_steps)
        log_s, total = _gbm_fixing(log_s, total, z1, drift, vol, t + 1 < n_steps)
        log_s, total = _gbm_fixing(log_s, total, z2, drift, vol, t + 2 < n_steps)
        log_s, total = _gbm_fixing(log_s, total, z3, drift, vol, t + 3 < n_steps)
    avg = s0 * total / n_steps
    payoff = tl.exp(-rate * maturity) * tl.maximum(avg - strike, 0.0)
    tl.store(out_ptr + paths, payoff, mask=paths < n_paths)


def run(params: torch.Tensor, n_paths: int, n_steps: int, seed: int) -> torch.Tensor:
    out = torch.empty(n_paths, device=params.device, dtype=torch.float32)
    BLOCK_P = 256
    grid = (triton.cdiv(n_paths, BLOCK_P),)
    asian_mc_kernel[grid](params, out, n_paths, n_steps, seed, BLOCK_P=BLOCK_P, num_warps=4)
    return out
