"""PNA aggregation in one CSR segment kernel: a single pass over each node's messages accumulates
sum, sum of squares, min and max, and writes the mean / min / max / std slices of the concatenated
[N, 4 * D] output."""
import torch
import triton
import triton.language as tl

AGGREGATORS = ("mean", "min", "max", "std")
STD_EPS = 1e-5


@triton.jit
def _message_tile(msg_ptr, rows, row_mask, cols, col_mask, stride_m):
    return tl.load(msg_ptr + rows[:, None] * stride_m + cols[None, :],
                   mask=row_mask[:, None] & col_mask[None, :], other=0.0)


@triton.jit
def pna_aggregate_kernel(msg_ptr, ptr_ptr, out_ptr, dim, stride_m, stride_o, eps,
                         BLOCK_E: tl.constexpr, BLOCK_D: tl.constexpr):
    node = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    col_mask = cols < dim
    start = tl.load(ptr_ptr + node)
    end = tl.load(ptr_ptr + node + 1)
    shift = tl.load(msg_ptr + start * stride_m + cols, mask=col_mask & (end > start), other=0.0)
    acc = tl.zeros([BLOCK_E, BLOCK_D], tl.float32)
    acc_sq = tl.zeros([BLOCK_E, BLOCK_D], tl.float32)
    acc_min = tl.full([BLOCK_E, BLOCK_D], float("inf"), tl.float32)
    acc_max = tl.full([BLOCK_E, BLOCK_D], float("-inf"), tl.float32)
    for e0 in range(start, end, BLOCK_E):
        rows = e0 + tl.arange(0, BLOCK_E)
        row_mask = rows < end
        x = _message_tile(msg_ptr, rows, row_mask, cols, col_mask, stride_m)
        xs = tl.where(row_mask[:, None], x - shift[None, :], 0.0)
        acc += xs
        acc_sq += xs * xs
        acc_min = tl.minimum(acc_min, tl.where(row_mask[:, None], x, float("inf")))
        acc_max = tl.maximum(acc_max, tl.where(row_mask[:, None], x, float("-inf")))
    deg = (end - start).to(tl.float32)
    cnt = tl.maximum(deg, 1.0)
    mean_s = tl.sum(acc, axis=0) / cnt
    var = tl.sum(acc_sq, axis=0) / cnt - mean_s * mean_s
    row_out = out_ptr + node * stride_o + cols
    tl.store(row_out, shift + mean_s, mask=col_mask)
    tl.store(row_out + dim, tl.where(deg > 0, tl.min(acc_min, axis=0), 0.0), mask=col_mask)
    tl.store(row_out + 2 * dim, tl.where(deg > 0, tl.max(acc_max, axis=0), 0.0), mask=col_mask)
    tl.store(row_out + 3 * dim, tl.sqrt(tl.maximum(var, 0.0) + eps), mask=col_mask)


def run(msg: torch.Tensor, ptr: torch.Tensor) -> torch.Tensor:
    n_nodes = ptr.numel() - 1
    dim = msg.shape[1]
    out = torch.empty((n_nodes, len(AGGREGATORS) * dim), device=msg.device, dtype=torch.float32)
    block_d = min(128, triton.next_power_of_2(dim))
    grid = (n_nodes, triton.cdiv(dim, block_d))
    launch = {"BLOCK_E": 16, "BLOCK_D": block_d, "num_warps": 4}
    pna_aggregate_kernel[grid](msg, ptr, out, dim, msg.stride(0), out.stride(0), STD_EPS, **launch)
    return out
