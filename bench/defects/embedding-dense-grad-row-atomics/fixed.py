"""Embedding backward (dense grad_weight) as PyTorch does it: sort the ids once (a counting sort), then
one program per (vocab row, column block) sums the run of tokens with that id in fp32 and writes the row once."""
import torch
import triton
import triton.language as tl


@triton.jit
def count_ids_kernel(ids_ptr, counts_ptr, T, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < T
    idx = tl.load(ids_ptr + offs, mask=mask, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=mask)


@triton.jit
def run_starts_kernel(counts_ptr, starts_ptr, cursor_ptr, V, BLOCK: tl.constexpr):
    # exclusive scan of the per-id counts: starts[v] = first slot of id v in the sorted order, starts[V] = T
    carry = 0
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        c = tl.load(counts_ptr + offs, mask=mask, other=0)
        first = tl.cumsum(c, axis=0) - c + carry
        tl.store(starts_ptr + offs, first, mask=mask)
        tl.store(cursor_ptr + offs, first, mask=mask)
        carry += tl.sum(c, axis=0)
    tl.store(starts_ptr + V, carry)


@triton.jit
def place_tokens_kernel(ids_ptr, cursor_ptr, sorted_tok_ptr, T, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < T
    idx = tl.load(ids_ptr + offs, mask=mask, other=0)
    slot = tl.atomic_add(cursor_ptr + idx, 1, mask=mask)
    tl.store(sorted_tok_ptr + slot, offs, mask=mask)


@triton.jit
def segment_sum_kernel(sorted_tok_ptr, starts_ptr, grad_out_ptr, grad_weight_ptr, H,
                       BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    cmask = cols < H
    lo = tl.load(starts_ptr + row)
    hi = tl.load(starts_ptr + row + 1)
    acc = tl.zeros((BLOCK_T, BLOCK_H), dtype=tl.float32)
    for i in range(lo, hi, BLOCK_T):
        slots = i + tl.arange(0, BLOCK_T)
        smask = slots < hi
        tok = tl.load(sorted_tok_ptr + slots, mask=smask, other=0)
        acc += tl.load(grad_out_ptr + tok.to(tl.int64)[:, None] * H + cols[None, :],
                       mask=smask[:, None] & cmask[None, :], other=0.0).to(tl.float32)
    out = tl.sum(acc, axis=0).to(grad_weight_ptr.dtype.element_ty)
    tl.store(grad_weight_ptr + row.to(tl.int64) * H + cols, out, mask=cmask)


def run(ids: torch.Tensor, grad_output: torch.Tensor, num_weights: int) -> torch.Tensor:
    T, H = grad_output.shape
    dev = grad_output.device
    counts = torch.zeros(num_weights, dtype=torch.int32, device=dev)
    starts = torch.empty(num_weights + 1, dtype=torch.int32, device=dev)
    cursor = torch.empty(num_weights, dtype=torch.int32, device=dev)
    sorted_tok = torch.empty(T, dtype=torch.int32, device=dev)
    grad_weight = torch.empty((num_weights, H), dtype=grad_output.dtype, device=dev)
    SCAN = 1024
    count_ids_kernel[(triton.cdiv(T, SCAN),)](ids, counts, T, BLOCK=SCAN)
    run_starts_kernel[(1,)](counts, starts, cursor, num_weights, BLOCK=SCAN)
    place_tokens_kernel[(triton.cdiv(T, SCAN),)](ids, cursor, sorted_tok, T, BLOCK=SCAN)
    BLOCK_H = min(1024, triton.next_power_of_2(H))
    segment_sum_kernel[(num_weights, triton.cdiv(H, BLOCK_H))](sorted_tok, starts, grad_output, grad_weight, H,
                                                              BLOCK_T=8, BLOCK_H=BLOCK_H, num_warps=4)
    return grad_weight
