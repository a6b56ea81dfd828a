"""MoE token permute on triton-ascend: one program per vector core, each looping over its share of rows."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 48  # Atlas A2 (910B): 24 AI cores x 2 vector units


@triton.jit
def _copy_row(src_ptr, dst_ptr, src_row, dst_row, H, BLOCK_H: tl.constexpr):
    cols = tl.arange(0, BLOCK_H)
    mask = cols < H
    x = tl.load(src_ptr + src_row * H + cols, mask=mask)
    tl.store(dst_ptr + dst_row * H + cols, x, mask=mask)


@triton.jit
def permute_kernel(hidden_ptr, sorted_idx_ptr, out_ptr, n_rows, rows_per_core, H,
                   TOPK: tl.constexpr, BLOCK_H: tl.constexpr):
    first = tl.program_id(0) * rows_per_core
    last = tl.minimum(first + rows_per_core, n_rows)
    for i in range(0, last - first):
        p = first + i
        token = tl.load(sorted_idx_ptr + p) // TOPK
        _copy_row(hidden_ptr, out_ptr, token, p, H, BLOCK_H)


def run(hidden: torch.Tensor, sorted_indices: torch.Tensor, topk: int) -> torch.Tensor:
    H = hidden.shape[1]
    n_rows = sorted_indices.numel()
    out = torch.empty((n_rows, H), dtype=hidden.dtype, device=hidden.device)
    cores = min(VECTOR_CORES, n_rows)
    rows_per_core = triton.cdiv(n_rows, cores)
    grid = (triton.cdiv(n_rows, rows_per_core),)
    permute_kernel[grid](hidden, sorted_indices, out, n_rows, rows_per_core, H,
                         TOPK=topk, BLOCK_H=triton.next_power_of_2(H))
    return out
