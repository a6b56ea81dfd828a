"""MoE combine as an index_add: each block of sorted rows scatters weight * row into its
tokens' fp32 accumulators with atomic adds, then a second kernel casts to the output dtype."""
import torch
import triton
import triton.language as tl


@triton.jit
def scatter_add_kernel(expert_out_ptr, weights_ptr, sorted_ids_ptr, acc_ptr, R, D, K,
                       BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_D)
    rmask = rows < R
    flat = tl.load(sorted_ids_ptr + rows, mask=rmask, other=0)
    tok = flat // K
    w = tl.load(weights_ptr + flat, mask=rmask, other=0.0)
    mask = rmask[:, None] & (cols[None, :] < D)
    x = tl.load(expert_out_ptr + rows[:, None] * D + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(acc_ptr + tok[:, None] * D + cols[None, :], x.to(tl.float32) * w[:, None], mask=mask)


@triton.jit
def cast_kernel(acc_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(acc_ptr + offs, mask=mask).to(out_ptr.dtype.element_ty), mask=mask)


def run(expert_out, weights, sorted_ids, src_to_row) -> torch.Tensor:
    T, K = weights.shape
    R, D = expert_out.shape
    acc = torch.zeros(T, D, dtype=torch.float32, device=expert_out.device)
    out = torch.empty(T, D, dtype=expert_out.dtype, device=expert_out.device)
    BLOCK_R = 4
    scatter_add_kernel[(triton.cdiv(R, BLOCK_R),)](expert_out, weights, sorted_ids, acc, R, D, K,
                                                   BLOCK_R=BLOCK_R, BLOCK_D=triton.next_power_of_2(D))
    cast_kernel[(triton.cdiv(T * D, 4096),)](acc, out, T * D, BLOCK=4096)
    return out
