"""index_select(table, 0, ids) through gather: the index is expanded to the output shape, then gathered element by element."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_dim0_kernel(table_ptr, index_ptr, out_ptr, T, D, stride_table, stride_index, stride_out,
                       BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    rt = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    rd = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = (rt[:, None] < T) & (rd[None, :] < D)
    # out[t, d] = table[index[t, d], d]  (torch.gather along dim 0)
    rows = tl.load(index_ptr + rt[:, None] * stride_index + rd[None, :], mask=mask, other=0)
    vals = tl.load(table_ptr + rows * stride_table + rd[None, :], mask=mask)
    tl.store(out_ptr + rt[:, None] * stride_out + rd[None, :], vals, mask=mask)


def run(table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    V, D = table.shape
    T = ids.shape[0]
    index = ids.view(T, 1).expand(T, D).contiguous()   # index_select as gather: index broadcast to [T, D]
    out = torch.empty((T, D), dtype=table.dtype, device=table.device)
    grid = (triton.cdiv(T, 16), triton.cdiv(D, 256))
    gather_dim0_kernel[grid](table, index, out, T, D, table.stride(0), index.stride(0), out.stride(0),
                             BLOCK_T=16, BLOCK_D=256)
    return out
