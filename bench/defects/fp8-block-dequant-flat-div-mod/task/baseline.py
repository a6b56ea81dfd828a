"""Block-wise fp8 weight dequantization: one program per 128 x 128 scale block."""
import torch
import triton
import triton.language as tl


@triton.jit
def weight_dequant_kernel(x_ptr, s_ptr, y_ptr, M, N, n_sblk, BLOCK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK + tl.arange(0, BLOCK)
    cols = pid_n * BLOCK + tl.arange(0, BLOCK)
    m = (rows < M)[:, None] & (cols < N)[None, :]
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    s = tl.load(s_ptr + pid_m * n_sblk + pid_n)
    tl.store(y_ptr + offs, (x * s).to(tl.bfloat16), mask=m)


def run(x, s, block_size):
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(M, block_size), triton.cdiv(N, block_size))
    weight_dequant_kernel[grid](x, s, y, M, N, s.shape[1], BLOCK=block_size)
    return y
