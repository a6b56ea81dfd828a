# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def _row_scale(x_row, N, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):  # expect: common-redundant-across-programs
        cols = start + tl.arange(0, BLOCK)
        acc = tl.maximum(acc, tl.abs(tl.load(x_row + cols, mask=cols < N, other=0.0)))
    return tl.max(acc, axis=0)


@triton.jit
def quant_kernel(x_ptr, q_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    amax = _row_scale(x_ptr + row * N, N, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
    tl.store(q_ptr + row * N + cols, (x / amax * 127.0).to(tl.int8), mask=cols < N)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    q = torch.empty((M, N), device=x.device, dtype=torch.int8)
    quant_kernel[(M, triton.cdiv(N, 1024))](x, q, N, BLOCK=1024)
    return q
