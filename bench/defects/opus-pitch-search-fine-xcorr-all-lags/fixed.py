"""CELT pitch search, finer stage: cross-correlation next to the two coarse candidates."""
import torch
import triton
import triton.language as tl


@triton.jit
def _fine_xcorr(buf_ptr, best_ptr, out_ptr, row_len, OFF, L, M,
                BLOCK_LAG: tl.constexpr, BLOCK_J: tl.constexpr):
    f = tl.program_id(0)
    lags = tl.program_id(1) * BLOCK_LAG + tl.arange(0, BLOCK_LAG)
    lag_ok = lags < M
    b0 = tl.load(best_ptr + 2 * f)
    b1 = tl.load(best_ptr + 2 * f + 1)
    near = ((tl.abs(lags - 2 * b0) <= 2) | (tl.abs(lags - 2 * b1) <= 2)) & lag_ok
    row = buf_ptr + f * row_len
    acc = tl.zeros([BLOCK_LAG], dtype=tl.float32)
    if tl.max(near.to(tl.int32), axis=0) > 0:
        for j0 in range(0, L, BLOCK_J):
            j = j0 + tl.arange(0, BLOCK_J)
            j_ok = j < L
            x = tl.load(row + OFF + j, mask=j_ok, other=0.0)
            y = tl.load(row + lags[:, None] + j[None, :], mask=lag_ok[:, None] & j_ok[None, :], other=0.0)
            acc += tl.sum(y * x[None, :], axis=1)
    xc = tl.where(near, tl.maximum(acc, -1.0), 0.0)
    tl.store(out_ptr + f * M + lags, xc, mask=lag_ok)


def run(buf: torch.Tensor, best: torch.Tensor, off: int, ln: int, m: int) -> torch.Tensor:
    f = buf.shape[0]
    out = torch.empty((f, m), device=buf.device, dtype=torch.float32)
    block_lag = 32
    grid = (f, triton.cdiv(m, block_lag))
    _fine_xcorr[grid](buf, best, out, buf.shape[1], off, ln, m,
                      BLOCK_LAG=block_lag, BLOCK_J=64, num_warps=4)
    return out
