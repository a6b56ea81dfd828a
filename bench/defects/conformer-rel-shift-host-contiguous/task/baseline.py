"""Conformer rel-pos attention softmax: one program per score row; the rel_shift is an offset into the
position-score row, so matrix_bd is read where it lies."""
import torch
import triton
import triton.language as tl


@triton.jit
def _masked_softmax(s, keep):
    s = tl.where(keep, s, float("-inf"))
    e = tl.exp(s - tl.max(s, axis=0))
    return e / tl.sum(e, axis=0)


@triton.jit
def rel_pos_softmax_kernel(ac_ptr, bd_ptr, len_ptr, out_ptr, H, T, bd_row_stride, scale,
                           BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    i = row % T
    bh = row // T
    length = tl.load(len_ptr + bh // H)
    cols = tl.arange(0, BLOCK_T)
    inside = cols < T
    keep = cols < length
    ac = tl.load(ac_ptr + row * T + cols, mask=keep, other=0.0).to(tl.float32)
    bd_row = bd_ptr + (bh * T + i) * bd_row_stride + (T - 1 - i)
    bd = tl.load(bd_row + cols, mask=keep, other=0.0).to(tl.float32)
    p = _masked_softmax((ac + bd) * scale, keep)
    tl.store(out_ptr + row * T + cols, p.to(out_ptr.dtype.element_ty), mask=inside)


def run(matrix_ac: torch.Tensor, matrix_bd: torch.Tensor, lengths: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, T, _ = matrix_ac.shape
    out = torch.empty_like(matrix_ac)
    BLOCK_T = triton.next_power_of_2(T)
    launch = {"num_warps": 4 if BLOCK_T <= 1024 else 8}
    rel_pos_softmax_kernel[(B * H * T,)](matrix_ac, matrix_bd, lengths, out, H, T, matrix_bd.stride(2), scale,
                                         BLOCK_T=BLOCK_T, **launch)
    return out
