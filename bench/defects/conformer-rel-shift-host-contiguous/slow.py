"""Conformer rel-pos attention softmax: the rel_shift as a strided view of the position scores laid out
like the content scores, then one program per score row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _masked_softmax(s, keep):
    s = tl.where(keep, s, float("-inf"))
    e = tl.exp(s - tl.max(s, axis=0))
    return e / tl.sum(e, axis=0)


@triton.jit
def rel_pos_softmax_kernel(ac_ptr, bd_ptr, len_ptr, out_ptr, H, T, scale, BLOCK_T: tl.constexpr):
    row = tl.program_id(0)
    bh = row // T
    length = tl.load(len_ptr + bh // H)
    cols = tl.arange(0, BLOCK_T)
    inside = cols < T
    keep = cols < length
    ac = tl.load(ac_ptr + row * T + cols, mask=keep, other=0.0).to(tl.float32)
    bd = tl.load(bd_ptr + row * T + cols, mask=keep, other=0.0).to(tl.float32)
    p = _masked_softmax((ac + bd) * scale, keep)
    tl.store(out_ptr + row * T + cols, p.to(out_ptr.dtype.element_ty), mask=inside)


def _rel_shift(x: torch.Tensor) -> torch.Tensor:
    b, h, qlen, pos_len = x.shape
    # row i of the shifted scores starts qlen - 1 - i positions into row i of x
    return x.as_strided((b, h, qlen, qlen), (x.stride(0), x.stride(1), pos_len - 1, 1),
                        x.storage_offset() + qlen - 1)


def run(matrix_ac: torch.Tensor, matrix_bd: torch.Tensor, lengths: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, T, _ = matrix_ac.shape
    bd = _rel_shift(matrix_bd).contiguous()
    out = torch.empty_like(matrix_ac)
    BLOCK_T = triton.next_power_of_2(T)
    launch = {"num_warps": 4 if BLOCK_T <= 1024 else 8}
    rel_pos_softmax_kernel[(B * H * T,)](matrix_ac, bd, lengths, out, H, T, scale, BLOCK_T=BLOCK_T, **launch)
    return out
