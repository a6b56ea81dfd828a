"""Jagged index select: each output row finds its segment by binary search over output_offsets."""
import torch
import triton
import triton.language as tl


@triton.jit
def jagged_index_select_kernel(val_ptr, in_off_ptr, idx_ptr, out_off_ptr, out_ptr, num_out_rows, num_segs, dim,
                               SEARCH_STEPS: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_mask = rows < num_out_rows
    # upper bound: first k in [1, num_segs] with output_offsets[k] > row; the segment is k - 1
    lo = tl.full([BLOCK_R], 1, tl.int32)
    hi = tl.full([BLOCK_R], num_segs, tl.int32)
    for _ in range(SEARCH_STEPS):
        active = lo < hi
        mid = (lo + hi) // 2
        v = tl.load(out_off_ptr + mid, mask=r_mask & active, other=0)
        go_right = active & (v <= rows)
        hi = tl.where(active & ~go_right, mid, hi)
        lo = tl.where(go_right, mid + 1, lo)
    seg = lo - 1
    seg_start = tl.load(out_off_ptr + seg, mask=r_mask, other=0)
    src_seg = tl.load(idx_ptr + seg, mask=r_mask, other=0)
    src = tl.load(in_off_ptr + src_seg, mask=r_mask, other=0) + (rows - seg_start)
    offs_d = tl.arange(0, BLOCK_D)
    m = r_mask[:, None] & (offs_d[None, :] < dim)
    v = tl.load(val_ptr + src.to(tl.int64)[:, None] * dim + offs_d[None, :], mask=m)
    tl.store(out_ptr + rows.to(tl.int64)[:, None] * dim + offs_d[None, :], v, mask=m)


def run(values, input_offsets, indices, output_offsets, num_out_rows):
    D = values.shape[1]
    num_segs = indices.numel()
    out = torch.empty((num_out_rows, D), device=values.device, dtype=values.dtype)
    BLOCK_R = 32
    jagged_index_select_kernel[(triton.cdiv(num_out_rows, BLOCK_R),)](
        values, input_offsets, indices, output_offsets, out, num_out_rows, num_segs, D,
        SEARCH_STEPS=num_segs.bit_length(), BLOCK_R=BLOCK_R, BLOCK_D=triton.next_power_of_2(D), num_warps=4)
    return out
