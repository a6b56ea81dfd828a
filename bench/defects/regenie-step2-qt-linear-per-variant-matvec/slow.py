"""regenie step-2 QT association statistics: per-variant beta and chi-square for P residualised traits."""
import torch
import triton
import triton.language as tl


@triton.jit
def _qt_variant_stats(G, Y, y_sq, beta, chisq, N, stride_g, stride_y,
                      P: tl.constexpr, BLOCK_N: tl.constexpr):
    v = tl.program_id(0)
    traits = tl.arange(0, P)
    s_gy = tl.zeros([P], dtype=tl.float32)
    s_g = tl.zeros([BLOCK_N], dtype=tl.float32)
    s_gg = tl.zeros([BLOCK_N], dtype=tl.float32)
    g_row = G + v * stride_g
    for n0 in range(0, N, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        ok = cols < N
        g = tl.load(g_row + cols, mask=ok, other=0.0).to(tl.float32)
        y = tl.load(Y + cols[:, None] * stride_y + traits[None, :], mask=ok[:, None], other=0.0).to(tl.float32)
        s_gy += tl.sum(g[:, None] * y, axis=0)
        s_g += g
        s_gg += g * g
    mu = tl.sum(s_g, axis=0) / N
    var_g = tl.sum(s_gg, axis=0) - N * mu * mu
    b = s_gy / var_g
    rss = tl.load(y_sq + traits) - b * s_gy
    tl.store(beta + v * P + traits, b)
    tl.store(chisq + v * P + traits, b * s_gy * (N - 2) / rss)


def run(G: torch.Tensor, Y: torch.Tensor, y_sq: torch.Tensor) -> tuple:
    M, N = G.shape
    P = Y.shape[1]
    beta = torch.empty((M, P), device=G.device, dtype=torch.float32)
    chisq = torch.empty((M, P), device=G.device, dtype=torch.float32)
    _qt_variant_stats[(M,)](G, Y, y_sq, beta, chisq, N, G.stride(0), Y.stride(0),
                            P=P, BLOCK_N=512, num_warps=4)
    return beta, chisq
