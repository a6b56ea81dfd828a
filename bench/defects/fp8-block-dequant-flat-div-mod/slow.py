"""Block-wise fp8 weight dequantization: a flat 1-D grid, each element finding its scale block."""
import torch
import triton
import triton.language as tl


@triton.jit
def weight_dequant_kernel(x_ptr, s_ptr, y_ptr, n_elems, N, n_sblk, block_size, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_elems
    row = offs // N
    col = offs % N
    s_idx = (row // block_size) * n_sblk + col // block_size
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    s = tl.load(s_ptr + s_idx, mask=m, other=0.0)
    tl.store(y_ptr + offs, (x * s).to(tl.bfloat16), mask=m)


def run(x, s, block_size):
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=torch.bfloat16)
    n = M * N
    BLOCK = 1024
    weight_dequant_kernel[(triton.cdiv(n, BLOCK),)](x, s, y, n, N, s.shape[1], block_size, BLOCK=BLOCK)
    return y
