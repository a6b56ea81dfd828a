"""var_mean: a row-mean kernel, then a variance kernel that streams the rows again around that mean."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, mean_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(mean_ptr + row, tl.sum(acc) / N)


@triton.jit
def row_var_kernel(x_ptr, mean_ptr, var_ptr, mean_out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    mean = tl.load(mean_ptr + row)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        d = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32) - mean
        acc += tl.where(mask, d * d, 0.0)
    tl.store(var_ptr + row, (tl.sum(acc) / (N - 1)).to(var_ptr.dtype.element_ty))
    tl.store(mean_out_ptr + row, mean.to(mean_out_ptr.dtype.element_ty))


def run(x: torch.Tensor):
    M, N = x.shape
    mean32 = torch.empty(M, dtype=torch.float32, device=x.device)
    var = torch.empty(M, dtype=x.dtype, device=x.device)
    mean = torch.empty(M, dtype=x.dtype, device=x.device)
    row_mean_kernel[(M,)](x, mean32, N, BLOCK=2048)
    row_var_kernel[(M,)](x, mean32, var, mean, N, BLOCK=2048)
    return var, mean
