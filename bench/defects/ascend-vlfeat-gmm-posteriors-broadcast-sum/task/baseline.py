"""Diagonal GMM E-step: per-descriptor posteriors over the K Gaussians (VLFeat Fisher-vector encoding)."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _gmm_posteriors(x, gconst, mean_prec, prec, resp, N,
                    K: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    ks = tl.arange(0, K)
    ds = tl.arange(0, D)
    g = tl.load(gconst + ks)
    w_lin = tl.load(mean_prec + ks[:, None] * D + ds[None, :])
    w_quad = tl.load(prec + ks[:, None] * D + ds[None, :]) * -0.5
    for tile in range(pid, tl.cdiv(N, BLOCK_N), n_prog):
        rows = tile * BLOCK_N + tl.arange(0, BLOCK_N)
        xs = tl.load(x + rows[:, None] * D + ds[None, :], mask=rows[:, None] < N, other=0.0)
        ll = tl.dot(xs, tl.trans(w_lin))
        ll = tl.dot(xs * xs, tl.trans(w_quad), ll)
        ll = ll + g[None, :]
        top = tl.max(ll, axis=1)
        e = tl.exp(ll - top[:, None])
        p = e / tl.sum(e, axis=1)[:, None]
        tl.store(resp + rows[:, None] * K + ks[None, :], p, mask=rows[:, None] < N)


def run(x: torch.Tensor, gconst: torch.Tensor, mean_prec: torch.Tensor, prec: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    K = gconst.shape[0]
    resp = torch.empty((N, K), device=x.device, dtype=torch.float32)
    block_n = 32
    grid = (min(triton.cdiv(N, block_n), NUM_AI_CORES),)
    _gmm_posteriors[grid](x, gconst, mean_prec, prec, resp, N, K=K, D=D, BLOCK_N=block_n)
    return resp
