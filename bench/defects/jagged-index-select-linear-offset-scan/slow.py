"""Jagged index select: each output row finds its segment by counting the output offsets at or below it."""
import torch
import triton
import triton.language as tl


@triton.jit
def jagged_index_select_kernel(val_ptr, in_off_ptr, idx_ptr, out_off_ptr, out_ptr, num_out_rows, num_segs, dim,
                               BLOCK_S: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_mask = rows < num_out_rows
    # segment = number of segment ends output_offsets[1..num_segs] that are <= row
    count = tl.zeros([BLOCK_R], dtype=tl.int32)
    for s0 in range(0, num_segs, BLOCK_S):
        offs_s = s0 + tl.arange(0, BLOCK_S)
        ends = tl.load(out_off_ptr + 1 + offs_s, mask=offs_s < num_segs, other=2147483647)
        count += tl.sum((ends[None, :] <= rows[:, None]).to(tl.int32), axis=1)
    seg = count
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
        BLOCK_S=256, BLOCK_R=BLOCK_R, BLOCK_D=triton.next_power_of_2(D), num_warps=4)
    return out
