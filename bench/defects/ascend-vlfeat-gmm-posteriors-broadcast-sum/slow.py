"""Diagonal GMM E-step: per-descriptor posteriors over the K Gaussians (VLFeat Fisher-vector encoding)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _gmm_posteriors(x, gconst, mean_prec, prec, resp, N,
                    K: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    ks = tl.arange(0, K)
    dd = tl.arange(0, BLOCK_D)
    g = tl.load(gconst + ks)
    for tile in range(pid, tl.cdiv(N, BLOCK_N), n_prog):
        rows = tile * BLOCK_N + tl.arange(0, BLOCK_N)
        ll = tl.zeros((BLOCK_N, K), dtype=tl.float32) + g[None, :]
        for d0 in range(0, D, BLOCK_D):
            xs = tl.load(x + rows[:, None] * D + d0 + dd[None, :], mask=rows[:, None] < N, other=0.0)
            w_lin = tl.load(mean_prec + ks[:, None] * D + d0 + dd[None, :])
            w_quad = tl.load(prec + ks[:, None] * D + d0 + dd[None, :])
            term = xs[:, None, :] * (w_lin[None, :, :] - 0.5 * xs[:, None, :] * w_quad[None, :, :])
            ll += tl.sum(term, axis=2)
        top = tl.max(ll, axis=1)
        e = tl.exp(ll - top[:, None])
        p = e / tl.sum(e, axis=1)[:, None]
        tl.store(resp + rows[:, None] * K + ks[None, :], p, mask=rows[:, None] < N)


def run(x: torch.Tensor, gconst: torch.Tensor, mean_prec: torch.Tensor, prec: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    K = gconst.shape[0]
    resp = torch.empty((N, K), device=x.device, dtype=torch.float32)
    block_n = 4
    block_d = min(16, D)
    grid = (min(triton.cdiv(N, block_n), NUM_VECTOR_CORES),)
    _gmm_posteriors[grid](x, gconst, mean_prec, prec, resp, N, K=K, D=D, BLOCK_N=block_n, BLOCK_D=block_d)
    return resp
