"""RiskMetrics EWMA covariance over a window of daily returns: C_t = lam * C_{t-1} + (1 - lam) * r_t r_t^T."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Atlas A2 (910B): 20 AI cube cores, 40 AI vector cores
LAM = 0.94      # RiskMetrics daily decay


@triton.jit
def _ewma_cov_update(cov_in, r, cov_out, N, tiles_n, n_tiles, lam, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        ti = tile // tiles_n
        tj = tile % tiles_n
        ri = ti * BLOCK + tl.arange(0, BLOCK)
        rj = tj * BLOCK + tl.arange(0, BLOCK)
        xi = tl.load(r + ri, mask=ri < N, other=0.0)
        xj = tl.load(r + rj, mask=rj < N, other=0.0)
        cmask = (ri[:, None] < N) & (rj[None, :] < N)
        c = tl.load(cov_in + ri[:, None] * N + rj[None, :], mask=cmask, other=0.0)
        c = lam * c + (1.0 - lam) * xi[:, None] * xj[None, :]
        tl.store(cov_out + ri[:, None] * N + rj[None, :], c, mask=cmask)


def run(cov0: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    T, N = returns.shape
    out = torch.empty_like(cov0)
    BLOCK = 64
    tiles_n = triton.cdiv(N, BLOCK)
    n_tiles = tiles_n * tiles_n
    grid = (min(n_tiles, NUM_CORES),)
    src = cov0
    for t in range(T):
        _ewma_cov_update[grid](src, returns[t], out, N, tiles_n, n_tiles, LAM, BLOCK=BLOCK)
        src = out
    return out
