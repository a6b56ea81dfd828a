"""Split R-hat (split Gelman-Rubin) of every parameter from samples [chains, draws, params]."""
import torch
import triton
import triton.language as tl

BLOCK_N = 256


@triton.jit
def _split_rhat(x, rhat, n_chains, n_draws, n_params, BLOCK_N: tl.constexpr):
    param = tl.program_id(0)
    draws = tl.arange(0, BLOCK_N)
    half = n_draws // 2
    # shift by the parameter's first draw so the one-pass sums do not cancel
    ref = tl.load(x + param)
    sum_mean = 0.0
    sum_mean_sq = 0.0
    sum_var = 0.0
    for j in range(2 * n_chains):
        start = (j // 2) * n_draws + (j % 2) * (n_draws - half)
        acc = tl.zeros([BLOCK_N], dtype=tl.float32)
        acc_sq = tl.zeros([BLOCK_N], dtype=tl.float32)
        for n0 in range(0, half, BLOCK_N):
            d = n0 + draws
            ok = d < half
            v = tl.load(x + (start + d) * n_params + param, mask=ok, other=ref)
            v = v - ref
            acc += v
            acc_sq += v * v
        s1 = tl.sum(acc, axis=0)
        s2 = tl.sum(acc_sq, axis=0)
        mean = s1 / half
        sum_var += (s2 - s1 * mean) / (half - 1)
        sum_mean += mean
        sum_mean_sq += mean * mean
    m = 2 * n_chains
    w = sum_var / m
    b_over_h = (sum_mean_sq - sum_mean * sum_mean / m) / (m - 1)
    var_plus = w * (half - 1) / half + b_over_h
    tl.store(rhat + param, tl.sqrt(var_plus / w))


def run(samples: torch.Tensor) -> torch.Tensor:
    n_chains, n_draws, n_params = samples.shape
    rhat = torch.empty(n_params, device=samples.device, dtype=samples.dtype)
    grid = (n_params,)
    _split_rhat[grid](samples, rhat, n_chains, n_draws, n_params, BLOCK_N=BLOCK_N, num_warps=4)
    return rhat
