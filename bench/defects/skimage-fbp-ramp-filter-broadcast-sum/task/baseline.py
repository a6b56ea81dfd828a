"""Ram-Lak ramp filter of CT projection rows: a linear convolution along the detector axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def _ramp_filter(sino, h, out, M, D, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    row_ok = rows < M
    col_ok = cols < D
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, D, BLOCK_K):
        k = k0 + rk
        k_ok = k < D
        x = tl.load(sino + rows[:, None] * D + k[None, :], mask=row_ok[:, None] & k_ok[None, :], other=0.0)
        taps = tl.load(h + (cols[None, :] - k[:, None] + D - 1), mask=k_ok[:, None] & col_ok[None, :], other=0.0)
        acc = tl.dot(x, taps, acc)
    tl.store(out + rows[:, None] * D + cols[None, :], acc, mask=row_ok[:, None] & col_ok[None, :])


def run(sino: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    B, A, D = sino.shape
    M = B * A
    out = torch.empty_like(sino)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(D, BLOCK_N))
    _ramp_filter[grid](sino, h, out, M, D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                       num_warps=8, num_stages=3)
    return out
