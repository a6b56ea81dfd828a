"""Baseline: AWQ dequantisation, one launch over every group, grid (K / 32, N / 128)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _awq_shift(cols):
    """Bit offset of column cols % 8 inside its int32 (AWQ order 0, 4, 1, 5, 2, 6, 3, 7)."""
    j = cols % 8
    return ((j % 2) * 4 + j // 2) * 4


@triton.jit
def awq_dequant_kernel(qw_ptr, scale_ptr, qz_ptr, out_ptr, K, N, G,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rows[:, None] < K) & (cols[None, :] < N)
    shift = _awq_shift(cols)
    grp = rows // G
    packed = tl.load(qw_ptr + rows[:, None] * (N // 8) + (cols // 8)[None, :], mask=m, other=0)
    q = (packed >> shift[None, :]) & 0xF
    zp = tl.load(qz_ptr + grp[:, None] * (N // 8) + (cols // 8)[None, :], mask=m, other=0)
    z = (zp >> shift[None, :]) & 0xF
    s = tl.load(scale_ptr + grp[:, None] * N + cols[None, :], mask=m, other=0.0)
    w = (q - z).to(tl.float32) * s.to(tl.float32)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], w.to(out_ptr.dtype.element_ty), mask=m)


def run(qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor, group: int) -> torch.Tensor:
    K = qweight.shape[0]
    N = scales.shape[1]
    out = torch.empty((K, N), device=scales.device, dtype=scales.dtype)
    grid = (triton.cdiv(K, 32), triton.cdiv(N, 128))
    awq_dequant_kernel[grid](qweight, scales, qzeros, out, K, N, group, BLOCK_K=32, BLOCK_N=128)
    return out
