"""VITS monotonic-alignment costs: neg_cent[b, y, x] = sum_d log N(z_p[b, d, y]; m_p[b, d, x], exp(logs_p[b, d, x]))."""
import math

import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20  # Atlas A2 (910B): cube + vector kernels get one program per AI core


@triton.jit
def _neg_cent(z, m, logs, out, D, TY, TX, n_ytile, n_xtile, n_tiles, half_log_2pi,
              BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    kk = tl.arange(0, BLOCK_K)
    yy = tl.arange(0, BLOCK_Y)
    xx = tl.arange(0, BLOCK_X)
    for tile in range(pid, n_tiles, nprog):
        b = tile // (n_ytile * n_xtile)
        rest = tile % (n_ytile * n_xtile)
        y = (rest // n_xtile) * BLOCK_Y + yy
        x = (rest % n_xtile) * BLOCK_X + xx
        y_ok = y < TY
        x_ok = x < TX
        acc = tl.zeros((BLOCK_Y, BLOCK_X), dtype=tl.float32)
        per_x = tl.zeros((BLOCK_X,), dtype=tl.float32)
        for k0 in range(0, D, BLOCK_K):
            k = k0 + kk
            k_ok = k < D
            zk = tl.load(z + b * D * TY + k[:, None] * TY + y[None, :],
                         mask=k_ok[:, None] & y_ok[None, :], other=0.0).to(tl.float32)
            px = b * D * TX + k[:, None] * TX + x[None, :]
            px_ok = k_ok[:, None] & x_ok[None, :]
            mk = tl.load(m + px, mask=px_ok, other=0.0).to(tl.float32)
            lk = tl.load(logs + px, mask=px_ok, other=0.0).to(tl.float32)
            r = tl.exp(-2.0 * lk)
            per_x += tl.sum(-lk - 0.5 * mk * mk * r, axis=0)
            acc = tl.dot(tl.trans((zk * zk).to(tl.float16)), (-0.5 * r).to(tl.float16), acc)
            acc = tl.dot(tl.trans(zk.to(tl.float16)), (mk * r).to(tl.float16), acc)
        res = acc + (per_x - D * half_log_2pi)[None, :]
        tl.store(out + b * TY * TX + y[:, None] * TX + x[None, :], res,
                 mask=y_ok[:, None] & x_ok[None, :])


def run(z_p: torch.Tensor, m_p: torch.Tensor, logs_p: torch.Tensor) -> torch.Tensor:
    B, D, TY = z_p.shape
    TX = m_p.shape[2]
    out = torch.empty((B, TY, TX), device=z_p.device, dtype=torch.float32)
    BLOCK_Y, BLOCK_X, BLOCK_K = 64, 64, 32
    n_ytile, n_xtile = triton.cdiv(TY, BLOCK_Y), triton.cdiv(TX, BLOCK_X)
    n_tiles = B * n_ytile * n_xtile
    grid = (min(n_tiles, NUM_AI_CORES),)
    _neg_cent[grid](z_p, m_p, logs_p, out, D, TY, TX, n_ytile, n_xtile, n_tiles, 0.5 * math.log(2 * math.pi),
                    BLOCK_Y=BLOCK_Y, BLOCK_X=BLOCK_X, BLOCK_K=BLOCK_K)
    return out
