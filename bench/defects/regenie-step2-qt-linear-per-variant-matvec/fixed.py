"""regenie step-2 QT association statistics: per-variant beta and chi-square for P residualised traits."""
import torch
import triton
import triton.language as tl


@triton.jit
def _qt_partial_sums(G, Y, part_gy, part_g, M, N, chunk, stride_g, stride_y,
                     P: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    split = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    traits = tl.arange(0, P)
    s_gy = tl.zeros([BLOCK_M, P], dtype=tl.float32)
    s_g = tl.zeros([BLOCK_M], dtype=tl.float32)
    s_gg = tl.zeros([BLOCK_M], dtype=tl.float32)
    n_lo = split * chunk
    n_hi = tl.minimum(n_lo + chunk, N)
    for n0 in range(n_lo, n_hi, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        ok = cols < n_hi
        g = tl.load(G + rows[:, None] * stride_g + cols[None, :], mask=row_ok[:, None] & ok[None, :], other=0.0)
        y = tl.load(Y + cols[:, None] * stride_y + traits[None, :], mask=ok[:, None], other=0.0)
        s_gy = tl.dot(g, y, s_gy)
        gf = g.to(tl.float32)
        s_g += tl.sum(gf, axis=1)
        s_gg += tl.sum(gf * gf, axis=1)
    base = split * M
    tl.store(part_gy + (base + rows[:, None]) * P + traits[None, :], s_gy, mask=row_ok[:, None])
    tl.store(part_g + (base + rows) * 2, s_g, mask=row_ok)
    tl.store(part_g + (base + rows) * 2 + 1, s_gg, mask=row_ok)


@triton.jit
def _qt_finish(part_gy, part_g, y_sq, beta, chisq, M, N, n_split,
               P: tl.constexpr, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    traits = tl.arange(0, P)
    s_gy = tl.zeros([BLOCK_M, P], dtype=tl.float32)
    s_g = tl.zeros([BLOCK_M], dtype=tl.float32)
    s_gg = tl.zeros([BLOCK_M], dtype=tl.float32)
    for split in range(0, n_split):
        base = split * M
        s_gy += tl.load(part_gy + (base + rows[:, None]) * P + traits[None, :], mask=row_ok[:, None], other=0.0)
        s_g += tl.load(part_g + (base + rows) * 2, mask=row_ok, other=0.0)
        s_gg += tl.load(part_g + (base + rows) * 2 + 1, mask=row_ok, other=1.0)
    mu = s_g / N
    s_gg = s_gg - N * mu * mu
    b = s_gy / s_gg[:, None]
    rss = tl.load(y_sq + traits)[None, :] - b * s_gy
    out = rows[:, None] * P + traits[None, :]
    tl.store(beta + out, b, mask=row_ok[:, None])
    tl.store(chisq + out, b * s_gy * (N - 2) / rss, mask=row_ok[:, None])


def run(G: torch.Tensor, Y: torch.Tensor, y_sq: torch.Tensor) -> tuple:
    M, N = G.shape
    P = Y.shape[1]
    BLOCK_M, BLOCK_N = 64, 128
    n_split = max(1, min(16, triton.cdiv(N, 4 * BLOCK_N)))
    chunk = triton.cdiv(triton.cdiv(N, n_split), BLOCK_N) * BLOCK_N
    part_gy = torch.empty((n_split, M, P), device=G.device, dtype=torch.float32)
    part_g = torch.empty((n_split, M, 2), device=G.device, dtype=torch.float32)
    _qt_partial_sums[(triton.cdiv(M, BLOCK_M), n_split)](
        G, Y, part_gy, part_g, M, N, chunk, G.stride(0), Y.stride(0),
        P=P, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    beta = torch.empty((M, P), device=G.device, dtype=torch.float32)
    chisq = torch.empty((M, P), device=G.device, dtype=torch.float32)
    _qt_finish[(triton.cdiv(M, BLOCK_M),)](part_gy, part_g, y_sq, beta, chisq, M, N, n_split,
                                           P=P, BLOCK_M=BLOCK_M, num_warps=4)
    return beta, chisq
