"""Multi-table embedding bags: one launch over a (bag, table) grid."""
import torch
import triton
import triton.language as tl


@triton.jit
def pooled_bag_kernel(w_ptr, table_off_ptr, idx_ptr, off_ptr, out_ptr, batch, n_tables, dim,
                      BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    t = tl.program_id(1)
    base = tl.load(table_off_ptr + t)
    start = tl.load(off_ptr + t * batch + b)
    end = tl.load(off_ptr + t * batch + b + 1)
    offs_d = tl.arange(0, BLOCK_D)
    d_mask = offs_d < dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for i in range(start, end, BLOCK_L):
        offs_l = i + tl.arange(0, BLOCK_L)
        l_mask = offs_l < end
        rows = tl.load(idx_ptr + offs_l, mask=l_mask, other=0).to(tl.int64) + base
        vals = tl.load(w_ptr + rows[:, None] * dim + offs_d[None, :], mask=l_mask[:, None] & d_mask[None, :],
                       other=0.0)
        acc += tl.sum(vals.to(tl.float32), axis=0)
    tl.store(out_ptr + b * n_tables * dim + t * dim + offs_d, acc, mask=d_mask)


def run(weights, table_offsets, indices, offsets, batch_size):
    T = table_offsets.numel() - 1
    D = weights.shape[1]
    out = torch.empty((batch_size, T * D), device=weights.device, dtype=torch.float32)
    pooled_bag_kernel[(batch_size, T)](weights, table_offsets, indices, offsets, out, batch_size, T, D,
                                       BLOCK_L=16, BLOCK_D=triton.next_power_of_2(D), num_warps=1)
    return out
