"""Embedding lookup with a grid-stride loop over tokens and a fixed grid of 64 programs."""
import torch
import triton
import triton.language as tl


@triton.jit
def embedding_kernel(table_ptr, ids_ptr, out_ptr, T, D, stride_table, stride_out,
                     BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < D
    for tok in range(tl.program_id(0), T, tl.num_programs(0)):
        row = tl.load(ids_ptr + tok)
        vals = tl.load(table_ptr + row * stride_table + cols, mask=mask)
        tl.store(out_ptr + tok * stride_out + cols, vals, mask=mask)


def run(table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    V, D = table.shape
    T = ids.shape[0]
    out = torch.empty((T, D), dtype=table.dtype, device=table.device)
    num_programs = 64  # grid-stride loop: each program walks every 64th token
    embedding_kernel[(num_programs,)](table, ids, out, T, D, table.stride(0), out.stride(0),
                                      BLOCK=triton.next_power_of_2(D))
    return out
