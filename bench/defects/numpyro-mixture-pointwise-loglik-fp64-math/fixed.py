"""Pointwise log-likelihood of a 1-D Gaussian mixture: loglik[s, n] = logsumexp_k log(w N(y_n | loc, scale))."""
import torch
import triton
import triton.language as tl

BLOCK_S = 16
BLOCK_N = 128


@triton.jit
def _mixture_loglik(y, w, loc, scale, out, n_draws, n_obs, n_comp,
                    BLOCK_S: tl.constexpr, BLOCK_N: tl.constexpr):
    draws = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    obs = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    draw_ok = draws < n_draws
    obs_ok = obs < n_obs
    yv = tl.load(y + obs, mask=obs_ok, other=0.0)
    run_max = tl.full([BLOCK_S, BLOCK_N], float("-inf"), tl.float32)
    run_sum = tl.zeros([BLOCK_S, BLOCK_N], dtype=tl.float32)
    for k in range(n_comp):
        wk = tl.load(w + draws * n_comp + k, mask=draw_ok, other=1.0)
        mk = tl.load(loc + draws * n_comp + k, mask=draw_ok, other=0.0)
        sk = tl.load(scale + draws * n_comp + k, mask=draw_ok, other=1.0)
        inv_s = 1.0 / sk
        const = tl.log(wk) - tl.log(sk) - 0.9189385332046727      # log w - log scale - log(2 pi) / 2
        z = (yv[None, :] - mk[:, None]) * inv_s[:, None]
        t = const[:, None] - 0.5 * z * z
        # running log-sum-exp with one exp per component: rescale whichever side is smaller
        diff = t - run_max
        e = tl.exp(-tl.abs(diff))
        run_sum = tl.where(diff > 0, run_sum * e + 1.0, run_sum + e)
        run_max = tl.maximum(run_max, t)
    res = run_max + tl.log(run_sum)
    mask = draw_ok[:, None] & obs_ok[None, :]
    tl.store(out + draws[:, None] * n_obs + obs[None, :], res, mask=mask)


def run(y: torch.Tensor, w: torch.Tensor, loc: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    n_obs = y.shape[0]
    n_draws, n_comp = w.shape
    out = torch.empty(n_draws, n_obs, device=y.device, dtype=y.dtype)
    grid = (triton.cdiv(n_draws, BLOCK_S), triton.cdiv(n_obs, BLOCK_N))
    _mixture_loglik[grid](y, w, loc, scale, out, n_draws, n_obs, n_comp,
                          BLOCK_S=BLOCK_S, BLOCK_N=BLOCK_N, num_warps=4)
    return out
