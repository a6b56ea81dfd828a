"""KL-div batchmean: per-row partial sums from one program per row, then a one-program final sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def kl_div_rows_kernel(x_ptr, t_ptr, partial_ptr, V, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
        t = tl.load(t_ptr + row * stride_row + cols, mask=mask, other=0.0)
        acc += tl.where(t > 0, t * (tl.log(t) - x), 0.0)
    tl.store(partial_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def sum_kernel(partial_ptr, loss_ptr, M, inv_m, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, M, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < M, other=0.0)
    tl.store(loss_ptr, tl.sum(acc, axis=0) * inv_m)


def run(input: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    M, V = input.shape
    partial = torch.empty(M, dtype=torch.float32, device=input.device)
    loss = torch.empty((), dtype=torch.float32, device=input.device)
    kl_div_rows_kernel[(M,)](input, target, partial, V, input.stride(0), BLOCK=4096, num_warps=8)
    sum_kernel[(1,)](partial, loss, M, 1.0 / M, BLOCK=1024)
    return loss
