"""repeat_interleave(dim=0) with a tensor of counts: row ends by one scan, then each output row's source by binary search."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_ends_kernel(repeats_ptr, ends_ptr, B, BLOCK_B: tl.constexpr):
    offs = tl.arange(0, BLOCK_B)
    counts = tl.load(repeats_ptr + offs, mask=offs < B, other=0).to(tl.int32)
    tl.store(ends_ptr + offs, tl.cumsum(counts, axis=0), mask=offs < B)


@triton.jit
def _source_rows(ends_ptr, rows, B, STEPS: tl.constexpr):
    # ends is sorted: the source of output row r is the number of ends <= r (an upper bound)
    lo = tl.zeros(rows.shape, dtype=tl.int32)
    hi = tl.zeros(rows.shape, dtype=tl.int32) + B
    for _ in tl.static_range(STEPS):
        active = lo < hi
        mid = (lo + hi) >> 1
        end = tl.load(ends_ptr + mid, mask=active, other=0)
        right = active & (end <= rows)
        lo = tl.where(right, mid + 1, lo)
        hi = tl.where(active & ~right, mid, hi)
    return lo


@triton.jit
def _expand_rows_kernel(x_ptr, ends_ptr, out_ptr, n_out, B, H,
                        ROWS: tl.constexpr, BLOCK_H: tl.constexpr, STEPS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_H)
    src = _source_rows(ends_ptr, rows, B, STEPS)
    mask = (rows[:, None] < n_out) & (cols[None, :] < H)
    vals = tl.load(x_ptr + src[:, None] * H + cols[None, :], mask=mask & (src[:, None] < B))
    tl.store(out_ptr + rows[:, None] * H + cols[None, :], vals, mask=mask)


def run(x: torch.Tensor, repeats: torch.Tensor, output_size: int) -> torch.Tensor:
    B, H = x.shape
    out = torch.empty((output_size, H), dtype=x.dtype, device=x.device)
    ends = torch.empty(B, dtype=torch.int32, device=x.device)
    _row_ends_kernel[(1,)](repeats, ends, B, BLOCK_B=triton.next_power_of_2(B), num_warps=32)
    rows = 16
    _expand_rows_kernel[(triton.cdiv(output_size, rows),)](
        x, ends, out, output_size, B, H, ROWS=rows, BLOCK_H=triton.next_power_of_2(H), STEPS=max(1, B.bit_length()))
    return out
