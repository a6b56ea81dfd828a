"""Embedding backward (dense grad_weight): one program per token adds its gradient row into an fp32
grad_weight[id] (bf16 atomics would lose the small updates), then a cast kernel writes the bf16 result."""
import torch
import triton
import triton.language as tl


@triton.jit
def embedding_backward_kernel(ids_ptr, grad_out_ptr, grad_acc_ptr, H, BLOCK_H: tl.constexpr):
    tok = tl.program_id(0)
    idx = tl.load(ids_ptr + tok)
    cols = tl.arange(0, BLOCK_H)
    mask = cols < H
    g = tl.load(grad_out_ptr + tok.to(tl.int64) * H + cols, mask=mask, other=0.0).to(tl.float32)
    # repeated ids race on the same row, so accumulate atomically
    tl.atomic_add(grad_acc_ptr + idx * H + cols, g, mask=mask)


@triton.jit
def cast_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask).to(dst_ptr.dtype.element_ty), mask=mask)


def run(ids: torch.Tensor, grad_output: torch.Tensor, num_weights: int) -> torch.Tensor:
    T, H = grad_output.shape
    grad_acc = torch.zeros((num_weights, H), dtype=torch.float32, device=grad_output.device)
    BLOCK_H = triton.next_power_of_2(H)
    num_warps = 8 if BLOCK_H >= 2048 else 4
    embedding_backward_kernel[(T,)](ids, grad_output, grad_acc, H, BLOCK_H=BLOCK_H, num_warps=num_warps)
    grad_weight = torch.empty((num_weights, H), dtype=grad_output.dtype, device=grad_output.device)
    n = grad_acc.numel()
    cast_kernel[(triton.cdiv(n, 4096),)](grad_acc, grad_weight, n, BLOCK=4096)
    return grad_weight
