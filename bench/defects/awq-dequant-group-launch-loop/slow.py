"""AWQ dequantisation, one quantisation group (128 rows) per launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def _awq_shift(cols):
    """Bit offset of column cols % 8 inside its int32 (AWQ order 0, 4, 1, 5, 2, 6, 3, 7)."""
    j = cols % 8
    return ((j % 2) * 4 + j // 2) * 4


@triton.jit
def awq_dequant_group_kernel(qw_ptr, scale_ptr, qz_ptr, out_ptr, G, N,
                             BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rows[:, None] < G) & (cols[None, :] < N)
    shift = _awq_shift(cols)
    packed = tl.load(qw_ptr + rows[:, None] * (N // 8) + (cols // 8)[None, :], mask=m, other=0)
    q = (packed >> shift[None, :]) & 0xF
    zp = tl.load(qz_ptr + cols // 8, mask=cols < N, other=0)
    z = (zp >> shift) & 0xF
    s = tl.load(scale_ptr + cols, mask=cols < N, other=0.0)
    w = (q - z[None, :]).to(tl.float32) * s[None, :].to(tl.float32)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], w.to(out_ptr.dtype.element_ty), mask=m)


def run(qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor, group: int) -> torch.Tensor:
    K = qweight.shape[0]
    N = scales.shape[1]
    out = torch.empty((K, N), device=scales.device, dtype=scales.dtype)
    grid = (triton.cdiv(group, 32), triton.cdiv(N, 128))
    for g in range(K // group):
        rows = slice(g * group, (g + 1) * group)
        awq_dequant_group_kernel[grid](qweight[rows], scales[g], qzeros[g], out[rows], group, N,
                                       BLOCK_K=32, BLOCK_N=128)
    return out
