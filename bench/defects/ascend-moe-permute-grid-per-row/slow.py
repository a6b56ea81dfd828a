"""MoE token permute on triton-ascend, ported with the GPU launch: one program per permuted row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_row(src_ptr, dst_ptr, src_row, dst_row, H, BLOCK_H: tl.constexpr):
    cols = tl.arange(0, BLOCK_H)
    mask = cols < H
    x = tl.load(src_ptr + src_row * H + cols, mask=mask)
    tl.store(dst_ptr + dst_row * H + cols, x, mask=mask)


@triton.jit
def permute_kernel(hidden_ptr, sorted_idx_ptr, out_ptr, H, TOPK: tl.constexpr, BLOCK_H: tl.constexpr):
    p = tl.program_id(0)
    token = tl.load(sorted_idx_ptr + p) // TOPK
    _copy_row(hidden_ptr, out_ptr, token, p, H, BLOCK_H)


def run(hidden: torch.Tensor, sorted_indices: torch.Tensor, topk: int) -> torch.Tensor:
    H = hidden.shape[1]
    n_rows = sorted_indices.numel()
    out = torch.empty((n_rows, H), dtype=hidden.dtype, device=hidden.device)
    permute_kernel[(n_rows,)](hidden, sorted_indices, out, H, TOPK=topk, BLOCK_H=triton.next_power_of_2(H))
    return out
