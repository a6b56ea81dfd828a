"""Baseline Triton top-k: one program per row, k rounds of argmax over the row in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def topk_kernel(x_ptr, val_ptr, idx_ptr, N, stride_row, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < N, other=-float("inf"))
    for i in range(K):
        best = tl.argmax(x, axis=0)
        tl.store(val_ptr + row * K + i, tl.max(x, axis=0))
        tl.store(idx_ptr + row * K + i, best.to(tl.int64))
        x = tl.where(cols == best, -float("inf"), x)


def run(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    M, N = x.shape
    values = torch.empty((M, k), dtype=x.dtype, device=x.device)
    indices = torch.empty((M, k), dtype=torch.int64, device=x.device)
    topk_kernel[(M,)](x, values, indices, N, x.stride(0), K=k, BLOCK=triton.next_power_of_2(N))
    return values, indices
