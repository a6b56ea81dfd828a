"""MoE dispatch permutation: each destination row gathers its source token row directly."""
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_row_block(src_row_ptr, dst_row_ptr, offs, mask):
    tl.store(dst_row_ptr + offs, tl.load(src_row_ptr + offs, mask=mask), mask=mask)


@triton.jit
def moe_permute_kernel(hidden_ptr, src_ptr, out_ptr, H, stride_h, stride_o, TOPK: tl.constexpr,
                       BLOCK_H: tl.constexpr):
    row = tl.program_id(0)
    pid_h = tl.program_id(1)
    token = tl.load(src_ptr + row) // TOPK
    offs = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    _copy_row_block(hidden_ptr + token.to(tl.int64) * stride_h, out_ptr + row.to(tl.int64) * stride_o, offs,
                    offs < H)


def run(hidden: torch.Tensor, src: torch.Tensor, topk: int) -> torch.Tensor:
    T, H = hidden.shape
    rows = src.numel()
    out = torch.empty((rows, H), device=hidden.device, dtype=hidden.dtype)
    BLOCK_H = min(1024, triton.next_power_of_2(H))
    grid = (rows, triton.cdiv(H, BLOCK_H))
    moe_permute_kernel[grid](hidden, src, out, H, hidden.stride(0), out.stride(0), TOPK=topk, BLOCK_H=BLOCK_H,
                             num_warps=4)
    return out
