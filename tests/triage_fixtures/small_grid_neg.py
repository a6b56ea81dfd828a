# backend: cuda
# absent: cuda-small-grid-underfill
import triton
import triton.language as tl


@triton.jit
def rows_kernel(x_ptr, out_ptr, M, N, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    for r in range(ROWS):
        row = pid * ROWS + r
        x = tl.load(x_ptr + row * N + cols, mask=cols < N)
        tl.store(out_ptr + row * N + cols, x * 2.0, mask=cols < N)


def run(x):
    M, N = 4096, 1024
    rows = 4
    out = x.new_empty(x.shape)
    rows_kernel[(M // rows,)](x, out, M, N, ROWS=rows, BLOCK=1024)
    return out
