"""CELT forward MDCT (low-overlap window folded into the analysis matrix) as frames @ basis^T."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mdct_frames(sig_ptr, basis_ptr, out_ptr, n_rows, frames, T, N, KW,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < n_rows
    col_ok = cols < N
    stream = rows // frames
    start = stream * T + (rows - stream * frames) * N
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, KW, BLOCK_K):
        kk = k0 + tl.arange(0, BLOCK_K)
        k_ok = kk < KW
        z = tl.load(sig_ptr + start[:, None] + kk[None, :], mask=row_ok[:, None] & k_ok[None, :], other=0.0)
        c = tl.load(basis_ptr + cols[:, None] * KW + kk[None, :], mask=col_ok[:, None] & k_ok[None, :], other=0.0)
        acc = tl.dot(z, tl.trans(c), acc)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], acc, mask=row_ok[:, None] & col_ok[None, :])


def run(sig: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
    b, t_len = sig.shape
    n, kw = basis.shape
    f = (t_len - kw) // n + 1
    out = torch.empty((b, f, n), device=sig.device, dtype=torch.float32)
    grid = (triton.cdiv(b * f, 64), triton.cdiv(n, 128))
    _mdct_frames[grid](sig, basis, out, b * f, f, t_len, n, kw,
                       BLOCK_M=64, BLOCK_N=128, BLOCK_K=32, num_warps=4, num_stages=3)
    return out
