"""EmbeddingBag sum that scatters every looked-up row into its bag's output with tl.atomic_add."""
import torch
import triton
import triton.language as tl


@triton.jit
def bag_ids_kernel(off_ptr, bag_ptr, BLOCK: tl.constexpr):
    bag = tl.program_id(0)
    start = tl.load(off_ptr + bag)
    end = tl.load(off_ptr + bag + 1)
    for first in range(start, end, BLOCK):
        i = first + tl.arange(0, BLOCK)
        tl.store(bag_ptr + i, bag.to(tl.int64), mask=i < end)


@triton.jit
def embedding_bag_scatter_kernel(table_ptr, idx_ptr, bag_ptr, out_ptr, D, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    bag = tl.load(bag_ptr + i)
    cols = tl.arange(0, BLOCK_D)
    vals = tl.load(table_ptr + row * D + cols, mask=cols < D, other=0.0)
    tl.atomic_add(out_ptr + bag * D + cols, vals, mask=cols < D)


def run(table: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    V, D = table.shape
    B = offsets.shape[0] - 1
    n = indices.shape[0]
    bag_of = torch.empty(n, dtype=torch.int64, device=table.device)
    bag_ids_kernel[(B,)](offsets, bag_of, BLOCK=64)
    out = torch.zeros((B, D), dtype=table.dtype, device=table.device)
    embedding_bag_scatter_kernel[(n,)](table, indices, bag_of, out, D, BLOCK_D=triton.next_power_of_2(D))
    return out
