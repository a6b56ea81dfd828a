# backend: cuda
import triton
import triton.language as tl


@triton.jit
def scan_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    part = tl.program_id(1)
    cols = tl.arange(0, BLOCK)
    total = 0.0
    for s in range(0, part * BLOCK, BLOCK):  # expect: common-prefix-rescan
        total += tl.sum(tl.load(x_ptr + row * N + s + cols, mask=s + cols < N, other=0.0), axis=0)
    offs = part * BLOCK + cols
    x = tl.load(x_ptr + row * N + offs, mask=offs < N, other=0.0)
    tl.store(out_ptr + row * N + offs, tl.cumsum(x, axis=0) + total, mask=offs < N)
